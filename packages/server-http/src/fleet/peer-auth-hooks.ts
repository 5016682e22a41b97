import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { closeAfterAnswer } from '../http-errors/answer-and-close';
import { errorReply } from '../http-errors/error-reply';
import { EMPTY_BODY_DIGEST, FLEET_SIGNATURE_HEADER, signPeerResponse } from './fleet-signature';
import type { PeerRequest } from './peer-request-verifier';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when another node of the fleet sent this request and proved it (see admitPeer); null otherwise. */
    runtimectlPeer?: PeerRequest | null;
    /** SHA-256 (hex) of a peer request's body as it arrived; null until read (or for other requests). */
    runtimectlBodyDigest?: string | null;
  }
}

/** Declares the per-request peer slots on `app`'s requests (decorated, as provider timing is). */
export function decoratePeerRequests(app: FastifyInstance): void {
  app.decorateRequest('runtimectlPeer', null);
  app.decorateRequest('runtimectlBodyDigest', null);
}

/**
 * What completes fleet peer authentication after a peer request's headers were admitted: its
 * body is hashed as it arrives and must be the one it signed (else 401, before anything else
 * reads it: register this before the forwarding and Idempotency-Key hooks), and the answer is
 * signed for the peer, bound to its request's nonce and the status, so that the sender believes
 * only this node.
 */
export function installPeerAuthHooks(app: FastifyInstance, fleet: { nodeId: string; secret: string | undefined }): void {
  app.addHook('preParsing', async (request, _reply, payload) => {
    if (!request.runtimectlPeer) return payload;
    const hash = createHash('sha256');
    const hashing = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        hash.update(chunk);
        callback(null, chunk);
      },
      flush(callback) {
        request.runtimectlBodyDigest = hash.digest('hex');
        callback();
      },
    });
    payload.on('error', (error) => hashing.destroy(error));
    return payload.pipe(hashing);
  });

  app.addHook('preValidation', async (request, reply) => {
    const peer = request.runtimectlPeer;
    if (!peer || (request.runtimectlBodyDigest ?? EMPTY_BODY_DIGEST) === peer.bodyDigest) return;
    request.log.warn({ forwarded_by: peer.from }, 'refused a fleet peer request whose body is not the one it signed');
    const { status, body } = errorReply('unauthorized', 'fleet peer request refused: the body is not the one signed');
    closeAfterAnswer(request, reply);
    return reply.code(status).send(body);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const peer = request.runtimectlPeer;
    if (peer && fleet.secret !== undefined) {
      reply.header(FLEET_SIGNATURE_HEADER, signPeerResponse(fleet.secret, { from: fleet.nodeId, to: peer.from, nonce: peer.nonce, status: reply.statusCode }));
    }
    return payload;
  });
}
