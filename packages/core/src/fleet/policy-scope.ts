import type { SessionRecord } from '../store/records';
import type { ServiceContext } from '../runtime/service-context';
import { nodeLiveness } from './fleet-nodes';

/**
 * Which runtimes this node applies policies to (TTL closes, retention deletes), so that each
 * action happens on one node only: a runtime with a home node (node-local providers: its
 * resources are on that machine) at its home; one without (fleet-wide providers), or whose home
 * never joined a fleet, on the maintenance lease holder.
 */
export async function policyScope(ctx: ServiceContext, holdsMaintenance: boolean): Promise<(session: SessionRecord) => boolean> {
  const nodes = await nodeLiveness(ctx.store, ctx.node.leaseMs);
  return (session) => {
    const home = session.homeNodeId;
    if (!home || !nodes.has(home)) return holdsMaintenance;
    return home === ctx.node.nodeId;
  };
}
