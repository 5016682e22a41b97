import { NodeListResultSchema, ReadyResultSchema, StoreUnavailableError } from '@runtimectl/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PEER_HELLO_PATH, type FleetOptions } from '../fleet/fleet-options';
import { toNodeView } from '../fleet/node-view';
import '../route-config';
import { ADMIN_ROUTE, ERROR_RESPONSES } from './route-options';

const DEFAULT_READY_TIMEOUT_MS = 2_000;

/** Resolves `promise`, or rejects with `StoreUnavailableError` once `ms` passed without an answer. */
function withinDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StoreUnavailableError(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/**
 * `GET /nodes` (the fleet's nodes), `GET /ready` (public: this node can reach its store) and
 * `GET /fleet/hello`, the handshake another node sends, signed, before it forwards a request
 * here: its signed answer proves this node is the one at this address (internal, not in the
 * OpenAPI document).
 */
export const fleetRoutes: FastifyPluginAsyncZod<{ fleet: FleetOptions }> = async (app, { fleet }) => {
  const readyTimeoutMs = fleet.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS;

  app.get(
    '/nodes',
    {
      config: ADMIN_ROUTE,
      schema: {
        summary: 'The nodes of the fleet: advertised URL, version, start, last heartbeat, liveness, runtimes each is home to',
        tags: ['service'],
        operationId: 'listNodes',
        response: { 200: NodeListResultSchema, ...ERROR_RESPONSES },
      },
    },
    async () => ({ nodes: (await fleet.directory.nodes()).map(toNodeView) }),
  );

  app.get(PEER_HELLO_PATH, { config: { runtimectl: { peer: true } }, schema: { hide: true } }, async () => ({ node_id: fleet.nodeId }));

  app.get(
    '/ready',
    {
      config: { runtimectl: { public: true } },
      schema: {
        summary: 'Readiness: 200 while this node reaches its store, else 503 store_unavailable; never needs a token',
        description:
          'For load balancers: take the node out of rotation while this fails. Liveness (`/health`) stays 200 meanwhile: the process is fine and reconnects by itself.',
        tags: ['service'],
        operationId: 'ready',
        security: [],
        response: { 200: ReadyResultSchema, ...ERROR_RESPONSES },
      },
    },
    async () => {
      await withinDeadline(fleet.directory.storeTimeMs(), readyTimeoutMs);
      return { status: 'ready' as const, node_id: fleet.nodeId };
    },
  );
};
