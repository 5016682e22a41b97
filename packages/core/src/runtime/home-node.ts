import { RuntimeOnOtherNodeError } from '../errors/fleet-errors';
import { nodeLiveness } from '../fleet/fleet-nodes';
import type { SessionRecord } from '../store/records';
import type { ServiceContext } from './service-context';

/**
 * The home node a new runtime (open, a checkout child) on `providerId` gets: this node when the
 * provider's backends live on this machine (`locality` absent or `node`), none when every node
 * reaches them (`fleet`).
 */
export function homeNodeFor(ctx: ServiceContext, providerId: string): string | null {
  return ctx.registry.get(providerId).locality === 'fleet' ? null : ctx.node.nodeId;
}

/**
 * Refuses to operate a runtime whose backend lives on another node's machine, naming that node
 * (the HTTP layer forwards such requests before they get here: this is the safety net).
 * Runtimes without a home node (fleet-wide providers, records older than the fleet), or whose
 * home never registered as a node, pass.
 */
export async function assertServedHere(ctx: ServiceContext, session: SessionRecord): Promise<void> {
  const home = session.homeNodeId;
  if (!home || home === ctx.node.nodeId) return;
  const node = (await nodeLiveness(ctx.store, ctx.node.leaseMs)).get(home);
  // A home that never joined a fleet (a service never started: one process using the library) is no other machine.
  if (!node) return;
  throw new RuntimeOnOtherNodeError(session.runtimeId, { nodeId: home, url: node.advertiseUrl, alive: node.alive });
}
