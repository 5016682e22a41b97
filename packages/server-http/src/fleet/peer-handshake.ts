import { API_PREFIX } from '../api-prefix';
import { FORWARDED_BY_HEADER, PEER_HELLO_PATH } from './fleet-options';
import { FLEET_SIGNATURE_HEADER } from './fleet-signature';
import { answeredByPeer, fetchFailureOf, signedPeerRequest, type PeerSelf, type PeerTarget } from './forward-request';

const PEER_HELLO_URL = `${API_PREFIX}${PEER_HELLO_PATH}`;

/**
 * Asks whatever listens at the target's URL to prove it is the target node, before anything of a
 * caller's request is sent there: a signed `GET /fleet/hello` that carries nothing but this
 * node's id and signature, whose answer must be signed by the target for this very request.
 * Resolves null when it proved itself, else why not. An impostor at the address (a process that
 * took the port of a stopped node) learns only that a node wanted to reach that one.
 */
export async function provePeer(self: PeerSelf, target: PeerTarget): Promise<string | null> {
  const signed = signedPeerRequest(self, target, { method: 'GET', url: PEER_HELLO_URL, body: null, idempotencyKey: undefined });
  let response: Response;
  try {
    response = await fetch(signed.url, {
      headers: { [FORWARDED_BY_HEADER]: self.nodeId, [FLEET_SIGNATURE_HEADER]: signed.signature },
      signal: AbortSignal.timeout(target.timeoutMs),
      redirect: 'manual',
    });
  } catch (error) {
    return `no answer (${fetchFailureOf(error)})`;
  }
  await response.body?.cancel().catch(() => undefined);
  if (!answeredByPeer(self, target, signed.nonce, response)) return `what answered (status ${response.status}) did not prove it is node ${target.nodeId}`;
  if (response.status !== 200) return `node ${target.nodeId} refused the handshake (status ${response.status})`;
  return null;
}
