import { RuntimeOnOtherNodeError } from '@runtimectl/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import '../route-config';
import { FORWARDED_BY_HEADER, type FleetOptions } from './fleet-options';
import { forwardRequest } from './forward-request';
import { HomeNodes, targetOf } from './home-nodes';

const DEFAULT_FORWARD_TIMEOUT_MS = 10 * 60 * 1000;

/**
 * A runtime operation (a POST naming a runtime, or a checkpoint: its runtime) whose runtime is
 * home on another node is sent there and its answer streamed back, before anything here runs
 * (auth has passed; the Idempotency-Key is claimed by the home node, not here). It is answered
 * 503 `runtime_on_other_node` instead when forwarding is off, the home node advertises no URL,
 * is not alive or gives no answer, or the request was already forwarded once (loop guard).
 */
export function installForwardingHook(app: FastifyInstance, fleet: FleetOptions): void {
  const homes = new HomeNodes(fleet.homes);
  const forward = fleet.forward ?? true;
  const timeoutMs = fleet.forwardTimeoutMs ?? DEFAULT_FORWARD_TIMEOUT_MS;

  app.addHook('preValidation', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== 'POST' || !request.routeOptions.config.runtimectl?.timing) return;
    const target = targetOf(request.body);
    if (!target) return;
    const home = await homes.of(target);
    if (!home || home.homeNodeId === null || home.homeNodeId === fleet.nodeId) return;
    const node = (await fleet.directory.nodeStates()).find((candidate) => candidate.nodeId === home.homeNodeId);
    const url = node?.advertiseUrl ?? null;
    const alive = node?.alive ?? false;
    const refused = new RuntimeOnOtherNodeError(home.runtimeId, { nodeId: home.homeNodeId, url, alive });
    if (!forward || url === null || !alive || request.headers[FORWARDED_BY_HEADER] !== undefined) throw refused;
    // The home node times its own provider calls; its server-timing is the one passed back.
    request.runtimectlTiming = null;
    if (!(await forwardRequest(request, reply, { baseUrl: url, nodeId: fleet.nodeId, timeoutMs }))) throw refused;
    return reply;
  });
}
