import { underFence } from '../runtime/fenced-context';
import { reconcileProviderResources, type ReconcileReport, type ReconcileScope } from '../runtime/reconcile';
import type { ServiceContext } from '../runtime/service-context';
import type { ProviderIntent } from '../store/records';
import type { FleetMembership } from './fleet-membership';
import { nodeLiveness } from './fleet-nodes';

/**
 * Who reconciles what in a fleet. Node-local providers' resources live on their home node's
 * machine: each node sweeps its own at start-up. Fleet-wide providers' resources are swept by
 * one node at a time, the maintenance lease holder: at its start, when it takes the lease over,
 * and whenever a dead node (or one older than the fleet) left intents open. Intents of live
 * nodes are in flight: their resources are never taken for orphans.
 */
async function fleetView(ctx: ServiceContext) {
  const [intents, nodes] = await Promise.all([ctx.store.listIntents(), nodeLiveness(ctx.store, ctx.node.leaseMs)]);
  const fleetWide = ctx.registry.list().filter((provider) => provider.locality === 'fleet');
  const fleetIds = new Set(fleetWide.map((provider) => provider.providerId));
  const self = ctx.node.nodeId;
  const isLive = (intent: ProviderIntent) => !!intent.nodeId && nodes.get(intent.nodeId)?.alive === true;
  // A node that never registered never joined a fleet: a previous process of this one (assertServedHere's rule).
  const isHere = (nodeId: string | null | undefined) => !nodeId || nodeId === self || !nodes.has(nodeId);
  const isMine = (intent: ProviderIntent) => isHere(intent.nodeId);
  return { intents, fleetWide, fleetIds, self, isLive, isMine, isHere };
}

/** The open intents of live nodes that `include` keeps, read now (see `ReconcileScope.inFlight`). */
function inFlightOf(ctx: ServiceContext, include: (intent: ProviderIntent) => boolean) {
  return async (): Promise<ProviderIntent[]> => {
    const view = await fleetView(ctx);
    return view.intents.filter((intent) => view.isLive(intent) && include(intent));
  };
}

function sweep(ctx: ServiceContext, installationId: string, membership: FleetMembership, scope: ReconcileScope): Promise<ReconcileReport> {
  const fence = membership.maintenanceFence;
  return reconcileProviderResources(fence ? underFence(ctx, fence) : ctx, installationId, scope);
}

/**
 * Start-up, before serving: sweeps this node's node-local providers (resolving its own intents
 * from before the restart) and, when it holds the maintenance lease, the fleet-wide ones. A node
 * that does not hold it hands its own fleet-wide intents to the holder (node id cleared).
 */
export async function reconcileAtStart(ctx: ServiceContext, installationId: string, membership: FleetMembership): Promise<ReconcileReport> {
  const holds = (await membership.holdMaintenance()) !== 'busy';
  const { intents, fleetWide, fleetIds, self, isLive, isMine, isHere } = await fleetView(ctx);
  const nodeLocal = ctx.registry.list().filter((provider) => !fleetIds.has(provider.providerId));
  const inFlight = intents.filter((intent) => intent.nodeId !== self && isLive(intent));
  if (!holds) {
    const handed = intents.filter((intent) => fleetIds.has(intent.providerId) && intent.nodeId === self);
    if (handed.length > 0) await ctx.store.commit({ intents: handed.map((intent) => ({ ...intent, nodeId: null })) });
  }
  return sweep(ctx, installationId, membership, {
    providers: holds ? [...nodeLocal, ...fleetWide] : nodeLocal,
    judges: (session) => fleetIds.has(session.providerId) || isHere(session.homeNodeId),
    inFlight: inFlightOf(ctx, (intent) => intent.nodeId !== self),
    resolvable: intents.filter((intent) => (fleetIds.has(intent.providerId) ? holds && !inFlight.includes(intent) : isMine(intent))),
  });
}

/**
 * Periodic (the membership's timer): takes the maintenance lease when it is free, and while
 * holding it sweeps the fleet-wide providers when it just took the lease over or a dead node's
 * intents are open, resolving those. Resolves null when there was nothing for this node to do.
 */
export async function maintainFleet(ctx: ServiceContext, installationId: string, membership: FleetMembership): Promise<ReconcileReport | null> {
  const status = await membership.holdMaintenance();
  if (status === 'busy') return null;
  const { intents, fleetWide, fleetIds, isLive } = await fleetView(ctx);
  const abandoned = intents.filter((intent) => fleetIds.has(intent.providerId) && !isLive(intent));
  if (status === 'held' && abandoned.length === 0) return null;
  return sweep(ctx, installationId, membership, {
    providers: fleetWide,
    judges: () => true,
    inFlight: inFlightOf(ctx, () => true),
    resolvable: abandoned,
  });
}
