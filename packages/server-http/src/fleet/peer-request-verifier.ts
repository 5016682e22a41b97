import type { IncomingHttpHeaders } from 'node:http';
import { FORWARDED_BY_HEADER } from './fleet-options';
import { FLEET_SIGNATURE_HEADER, FLEET_SIGNATURE_WINDOW_MS, parsePeerRequestSignature, peerRequestMacMatches } from './fleet-signature';
import { NonceMemory } from './nonce-memory';

/** A request another node of the fleet signed: who sent it, what it answers to, what its body must hash to. */
export interface PeerRequest {
  from: string;
  nonce: string;
  bodyDigest: string;
}

export type PeerVerdict = { ok: true; peer: PeerRequest } | { ok: false; reason: string };

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? undefined : value);

/** Whether a request claims to come from another node (it must then prove it: see PeerRequestVerifier). */
export function claimsToBePeer(headers: IncomingHttpHeaders): boolean {
  return headers[FORWARDED_BY_HEADER] !== undefined || headers[FLEET_SIGNATURE_HEADER] !== undefined;
}

/**
 * The receiving side of fleet peer authentication: a request that claims to come from another
 * node (`x-runtimectl-forwarded-by`) is believed only with a valid signature under the fleet
 * secret, made for this node, within the time window, and not seen before. Its body is checked
 * against the signed digest once read (see installPeerAuthHooks). Without a secret every such
 * claim is refused.
 */
export class PeerRequestVerifier {
  readonly #nonces = new NonceMemory(FLEET_SIGNATURE_WINDOW_MS);

  constructor(
    private readonly nodeId: string,
    private readonly secret: string | undefined,
    private readonly nowMs: () => number = Date.now,
  ) {}

  verify(request: { method: string; url: string; headers: IncomingHttpHeaders }): PeerVerdict {
    if (this.secret === undefined) return { ok: false, reason: 'this node has no fleet secret (fleet.secret_env)' };
    const from = single(request.headers[FORWARDED_BY_HEADER]);
    const signature = parsePeerRequestSignature(single(request.headers[FLEET_SIGNATURE_HEADER]));
    if (!from || !signature) return { ok: false, reason: `a peer request needs one ${FORWARDED_BY_HEADER} and one well-formed ${FLEET_SIGNATURE_HEADER}` };
    const claim = {
      from,
      to: this.nodeId,
      timestampMs: signature.timestampMs,
      nonce: signature.nonce,
      method: request.method,
      url: request.url,
      bodyDigest: signature.bodyDigest,
      idempotencyKey: single(request.headers['idempotency-key']),
    };
    if (!peerRequestMacMatches(this.secret, claim, signature.mac)) {
      return { ok: false, reason: `the signature does not match (another fleet secret, or a request signed for another node than ${this.nodeId})` };
    }
    const nowMs = this.nowMs();
    if (Math.abs(nowMs - signature.timestampMs) > FLEET_SIGNATURE_WINDOW_MS) {
      return { ok: false, reason: `signed ${nowMs - signature.timestampMs} ms from this node's clock (at most ${FLEET_SIGNATURE_WINDOW_MS} either way)` };
    }
    if (!this.#nonces.firstUse(from, signature.nonce, signature.timestampMs + FLEET_SIGNATURE_WINDOW_MS, nowMs)) {
      return { ok: false, reason: 'this signed request was seen before (a replay)' };
    }
    return { ok: true, peer: { from, nonce: signature.nonce, bodyDigest: signature.bodyDigest } };
  }
}
