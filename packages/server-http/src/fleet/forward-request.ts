import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { REQUEST_ID_HEADER } from '../request-id';
import { FORWARDED_BY_HEADER } from './fleet-options';
import { bodyDigestOf, FLEET_SIGNATURE_HEADER, newNonce, peerResponseSignatureMatches, signPeerRequest } from './fleet-signature';

/** Headers that describe one connection or one encoding of the body, never passed along (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'expect',
  'accept-encoding',
]);

/**
 * The caller's credentials stay on this node: the peer learns who sends the request from the
 * fleet signature, and this node has already checked the caller. So an impostor at a peer's
 * address could never collect a token, and a peer needs none.
 */
const NOT_FORWARDED = new Set(['authorization', 'cookie', FLEET_SIGNATURE_HEADER]);

/** This node, as it signs what it sends to its peers. */
export interface PeerSelf {
  nodeId: string;
  secret: string;
}

/** Where a request goes: the peer's advertised URL and its node id (what the signatures name). */
export interface PeerTarget {
  baseUrl: string;
  nodeId: string;
  timeoutMs: number;
}

function forwardedHeaders(request: FastifyRequest, self: PeerSelf, signature: string): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || NOT_FORWARDED.has(name)) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  headers.set(REQUEST_ID_HEADER, request.id);
  headers.set(FORWARDED_BY_HEADER, self.nodeId);
  headers.set(FLEET_SIGNATURE_HEADER, signature);
  headers.set('content-type', 'application/json');
  return headers;
}

/** Why `fetch` got no answer, in a few words: the network error's code (ECONNREFUSED …) where there is one. */
export function fetchFailureOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return (error as Error).message;
}

/** A request to a peer, signed by this node for that node: what `fetch` needs, and the nonce its answer must name. */
export function signedPeerRequest(
  self: PeerSelf,
  target: PeerTarget,
  request: { method: string; url: string; body: string | null; idempotencyKey: string | undefined },
): { url: string; nonce: string; signature: string } {
  const nonce = newNonce();
  const signature = signPeerRequest(self.secret, {
    from: self.nodeId,
    to: target.nodeId,
    timestampMs: Date.now(),
    nonce,
    method: request.method,
    url: request.url,
    bodyDigest: bodyDigestOf(request.body ?? ''),
    idempotencyKey: request.idempotencyKey,
  });
  return { url: `${target.baseUrl.replace(/\/+$/, '')}${request.url}`, nonce, signature };
}

/** Whether `response` is the target's own answer to the request with `nonce` (see fleet-signature). */
export function answeredByPeer(self: PeerSelf, target: PeerTarget, nonce: string, response: Response): boolean {
  return peerResponseSignatureMatches(
    self.secret,
    { from: target.nodeId, to: self.nodeId, nonce, status: response.status },
    response.headers.get(FLEET_SIGNATURE_HEADER),
  );
}

/**
 * Sends `request` (its method, path, query, headers but the caller's credentials, and JSON body),
 * signed by `self` for the target node, to the target's URL, and streams the answer back
 * through `reply` once it proved to come from that node. Resolves 'answered' once the answer is
 * being sent; otherwise why no proven answer came (connection refused or reset, deadline passed,
 * an answer without the target's signature, which is dropped unread) — nothing was sent to the
 * caller then. The forwarded request is aborted when the caller goes away or `timeoutMs` passes.
 */
export async function forwardRequest(request: FastifyRequest, reply: FastifyReply, target: PeerTarget, self: PeerSelf): Promise<'answered' | string> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new Error(`no answer within ${target.timeoutMs} ms`)), target.timeoutMs);
  const callerGone = () => {
    if (!reply.raw.writableFinished) abort.abort(new Error('the caller went away'));
  };
  reply.raw.once('close', callerGone);
  const done = () => {
    clearTimeout(timer);
    reply.raw.off('close', callerGone);
  };
  const body = request.body === undefined ? null : JSON.stringify(request.body);
  const idempotencyKey = request.headers['idempotency-key'];
  const signed = signedPeerRequest(self, target, {
    method: request.method,
    url: request.url,
    body,
    idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey : undefined,
  });
  let response: Response;
  try {
    response = await fetch(signed.url, {
      method: request.method,
      headers: forwardedHeaders(request, self, signed.signature),
      body,
      signal: abort.signal,
      redirect: 'manual',
    });
  } catch (error) {
    done();
    request.log.warn({ err: error, node_id: target.nodeId }, 'forwarding to the runtime\'s home node failed');
    return `no answer (${fetchFailureOf(error)})`;
  }
  if (!answeredByPeer(self, target, signed.nonce, response)) {
    done();
    await response.body?.cancel().catch(() => undefined);
    request.log.warn({ node_id: target.nodeId, status: response.status }, 'an answer at the home node\'s address did not prove it came from that node; dropped unread');
    return `what answered (status ${response.status}) did not prove it is node ${target.nodeId}`;
  }
  reply.code(response.status);
  for (const [name, value] of response.headers) {
    if (!HOP_BY_HOP.has(name) && name !== 'content-encoding' && name !== FLEET_SIGNATURE_HEADER) reply.header(name, value);
  }
  if (!response.body) {
    done();
    reply.send();
    return 'answered';
  }
  const answer = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>);
  answer.once('close', done);
  reply.send(answer);
  return 'answered';
}
