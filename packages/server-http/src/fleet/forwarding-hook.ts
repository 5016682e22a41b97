import { NodeUnreachableError, RuntimeOnOtherNodeError } from '@runtimectl/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import '../route-config';
import type { FleetOptions } from './fleet-options';
import { forwardRequest } from './forward-request';
import { HomeNodes, targetOf } from './home-nodes';
import { provePeer } from './peer-handshake';

const DEFAULT_FORWARD_TIMEOUT_MS = 10 * 60 * 1000;
const DEFAULT_HANDSHAKE_TIMEOUT_MS = 5_000;

/**
 * A runtime operation (a POST naming a runtime, or a checkpoint: its runtime) whose runtime is
 * home on another node is sent there and its answer streamed back, before anything here runs
 * (auth has passed; the Idempotency-Key is claimed by the home node, not here). First the node
 * at the home's advertised URL must prove it is the home node (provePeer); the request then goes
 * signed by this node, without the caller's credentials, and only an answer signed by the home
 * node is passed back. It is answered 503 `runtime_on_other_node` instead when forwarding is off,
 * this node has no fleet secret, the home node advertises no URL or is not alive, or the request
 * was itself forwarded (loop guard); 503 `node_unreachable` when the home node gave no proven
 * answer (nothing answered, or something that is not that node).
 */
export function installForwardingHook(app: FastifyInstance, fleet: FleetOptions): void {
  const homes = new HomeNodes(fleet.homes);
  const forward = fleet.forward ?? true;
  const timeoutMs = fleet.forwardTimeoutMs ?? DEFAULT_FORWARD_TIMEOUT_MS;
  const handshakeTimeoutMs = Math.min(fleet.handshakeTimeoutMs ?? DEFAULT_HANDSHAKE_TIMEOUT_MS, timeoutMs);
  const secret = fleet.secret;

  app.addHook('preValidation', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== 'POST' || !request.routeOptions.config.runtimectl?.timing) return;
    const target = targetOf(request.body);
    if (!target) return;
    const home = await homes.of(target);
    if (!home || home.homeNodeId === null || home.homeNodeId === fleet.nodeId) return;
    const node = (await fleet.directory.nodeStates()).find((candidate) => candidate.nodeId === home.homeNodeId);
    const url = node?.advertiseUrl ?? null;
    const alive = node?.alive ?? false;
    if (!forward || secret === undefined || url === null || !alive || request.runtimectlPeer) {
      throw new RuntimeOnOtherNodeError(home.runtimeId, { nodeId: home.homeNodeId, url, alive });
    }
    const self = { nodeId: fleet.nodeId, secret };
    const unreachable = (reason: string) => new NodeUnreachableError(home.runtimeId, { nodeId: home.homeNodeId!, url }, reason);
    const unproven = await provePeer(self, { baseUrl: url, nodeId: home.homeNodeId, timeoutMs: handshakeTimeoutMs });
    if (unproven !== null) {
      request.log.warn({ node_id: home.homeNodeId, reason: unproven }, 'the runtime\'s home node did not prove itself; nothing was forwarded');
      throw unreachable(unproven);
    }
    // The home node times its own provider calls; its server-timing is the one passed back.
    request.runtimectlTiming = null;
    const outcome = await forwardRequest(request, reply, { baseUrl: url, nodeId: home.homeNodeId, timeoutMs }, self);
    if (outcome !== 'answered') throw unreachable(outcome);
    return reply;
  });
}
