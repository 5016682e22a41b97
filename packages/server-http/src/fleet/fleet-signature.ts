import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * How nodes of a fleet prove themselves to each other (docs/http-api.md, "Fleet forwarding"):
 * HMAC-SHA256 under the fleet's shared secret, over a canonical text naming both nodes, so a
 * request signed for one node is worthless at another and nothing an impostor saw can be
 * replayed as something else.
 *
 * A request carries `x-runtimectl-fleet-signature: t=<ms>,n=<nonce>,b=<body sha-256>,v1=<mac>`
 * over its sender, its receiver, `t`, `n`, method, URL (path and query), body digest and
 * Idempotency-Key. The receiver's answer carries `x-runtimectl-fleet-signature: v1=<mac>` over
 * the responder, the requester, the request's nonce and the status, so only the node the request
 * was meant for can answer it.
 */
export const FLEET_SIGNATURE_HEADER = 'x-runtimectl-fleet-signature';

/** How far a signed request's `t` may lie from the receiver's clock, either way; nodes' clocks must agree this well. */
export const FLEET_SIGNATURE_WINDOW_MS = 60_000;

/** What a signed request says about itself. Node ids and header values never hold a newline. */
export interface PeerRequestClaim {
  /** The sending node. */
  from: string;
  /** The node the request is meant for. */
  to: string;
  timestampMs: number;
  /** 32 hex digits, fresh for every request. */
  nonce: string;
  method: string;
  /** Path and query, as sent. */
  url: string;
  /** SHA-256 (hex) of the body as sent; of the empty string when there is none. */
  bodyDigest: string;
  idempotencyKey: string | undefined;
}

/** What a signed answer is bound to. */
export interface PeerResponseClaim {
  /** The answering node (the request's `to`). */
  from: string;
  /** The node that sent the request. */
  to: string;
  /** The request's nonce. */
  nonce: string;
  status: number;
}

const NONCE = /^[0-9a-f]{32}$/;
const DIGEST = /^[0-9a-f]{64}$/;

export function bodyDigestOf(body: string): string {
  return createHash('sha256').update(body, 'utf8').digest('hex');
}

export const EMPTY_BODY_DIGEST = bodyDigestOf('');

export function newNonce(): string {
  return randomBytes(16).toString('hex');
}

function mac(secret: string, lines: readonly (string | number)[]): string {
  return createHmac('sha256', secret).update(lines.join('\n'), 'utf8').digest('hex');
}

function sameMac(expected: string, presented: string): boolean {
  const left = Buffer.from(expected, 'utf8');
  const right = Buffer.from(presented, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

function requestMac(secret: string, claim: PeerRequestClaim): string {
  const { from, to, timestampMs, nonce, method, url, bodyDigest, idempotencyKey } = claim;
  return mac(secret, ['runtimectl-fleet-request-v1', from, to, timestampMs, nonce, method.toUpperCase(), url, bodyDigest, idempotencyKey ?? '']);
}

function responseMac(secret: string, claim: PeerResponseClaim): string {
  return mac(secret, ['runtimectl-fleet-response-v1', claim.from, claim.to, claim.nonce, claim.status]);
}

/** The request's signature header value. */
export function signPeerRequest(secret: string, claim: PeerRequestClaim): string {
  return `t=${claim.timestampMs},n=${claim.nonce},b=${claim.bodyDigest},v1=${requestMac(secret, claim)}`;
}

/** The fields of a request's signature header, or null when it is not one. */
export function parsePeerRequestSignature(header: string | undefined): { timestampMs: number; nonce: string; bodyDigest: string; mac: string } | null {
  if (header === undefined) return null;
  const fields = new Map(header.split(',').map((part) => part.trim().split('=', 2) as [string, string | undefined]));
  const [t, nonce, bodyDigest, presented] = [fields.get('t'), fields.get('n'), fields.get('b'), fields.get('v1')];
  if (!t || !/^\d{1,16}$/.test(t) || !nonce || !NONCE.test(nonce) || !bodyDigest || !DIGEST.test(bodyDigest) || !presented) return null;
  return { timestampMs: Number(t), nonce, bodyDigest, mac: presented };
}

/** Whether `presented` is the secret's MAC of the claim (constant time). */
export function peerRequestMacMatches(secret: string, claim: PeerRequestClaim, presented: string): boolean {
  return sameMac(requestMac(secret, claim), presented);
}

/** The answer's signature header value. */
export function signPeerResponse(secret: string, claim: PeerResponseClaim): string {
  return `v1=${responseMac(secret, claim)}`;
}

/** Whether `header` is the secret's signature of this answer (constant time); false when absent. */
export function peerResponseSignatureMatches(secret: string, claim: PeerResponseClaim, header: string | null | undefined): boolean {
  const presented = header?.trim().match(/^v1=([0-9a-f]{64})$/)?.[1];
  return presented !== undefined && sameMac(responseMac(secret, claim), presented);
}
