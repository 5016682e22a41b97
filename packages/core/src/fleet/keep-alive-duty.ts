import type { BackendProviderV1, BackendResource } from '@runtimectl/provider';
import { listAllSessions } from '../runtime/list-all-sessions';
import type { ServiceContext } from '../runtime/service-context';

/** A backend to keep alive: which provider refreshes it, and the resource it is told. */
interface KeptBackend {
  providerId: string;
  resource: BackendResource;
}

/**
 * How many passes must find a backend this node made or attached bound to a live runtime in the
 * store before the node stops keeping it alive itself: the first such pass may have run just
 * before the holder's pass that sees the binding, the second runs a heartbeat later, after it.
 */
const HAND_OVER_SIGHTINGS = 2;

/**
 * Who keeps which backends alive, for providers whose backends lapse unless refreshed
 * (`keepAlive`, e.g. E2B sandboxes). One pass per heartbeat. The maintenance lease holder keeps
 * alive the backend of every live runtime in the store; no other node does, so the duty moves
 * with the lease. Every node also keeps the backends it made or attached itself until the
 * hand-over is safe — it drops one on the second pass that finds it bound in the store — so a
 * backend never lapses because its binding was not committed yet or the holder had not seen it.
 * When every node is gone nobody refreshes: the backends lapse at their own timeout.
 */
export class KeepAliveDuty {
  /** This node's live backends → how many passes found them bound to a live runtime. */
  readonly #sightings = new Map<string, number>();
  #kept = 0;

  /** How many backends the last pass told the providers to keep alive. */
  get keptAlive(): number {
    return this.#kept;
  }

  /** Tells every keep-alive provider its set: every live runtime's backend on the holder, plus the hand-over. */
  async pass(ctx: ServiceContext, holder: boolean): Promise<void> {
    const providers = ctx.registry.list().filter((provider) => provider.keepAlive);
    if (providers.length === 0) return;
    const providerIds = new Set(providers.map((provider) => provider.providerId));
    const bound = holder ? await liveBindings(ctx, providers) : new Map<string, KeptBackend>();
    await this.#sight(ctx, providerIds, bound);
    // No await from here on: a backend registered while the store answered is in the hand-over.
    const kept = new Map(bound);
    for (const own of ctx.backends.liveBackends()) {
      if (providerIds.has(own.providerId) && (this.#sightings.get(own.backendId) ?? 0) < HAND_OVER_SIGHTINGS) kept.set(own.backendId, own);
    }
    for (const provider of providers) {
      provider.keepAlive?.([...kept.values()].filter((backend) => backend.providerId === provider.providerId).map((backend) => backend.resource));
    }
    this.#kept = kept.size;
  }

  /** Counts, for each of this node's live backends still in hand-over, whether the store binds it to a live runtime now. */
  async #sight(ctx: ServiceContext, providerIds: ReadonlySet<string>, bound: ReadonlyMap<string, KeptBackend>): Promise<void> {
    const own = ctx.backends.liveBackends().filter((backend) => providerIds.has(backend.providerId));
    const live = new Set(own.map((backend) => backend.backendId));
    for (const backendId of this.#sightings.keys()) if (!live.has(backendId)) this.#sightings.delete(backendId);
    for (const { backendId } of own) {
      const seen = this.#sightings.get(backendId) ?? 0;
      if (seen >= HAND_OVER_SIGHTINGS) continue;
      const isBound = bound.has(backendId) || (await ctx.store.listSessionsByBackend(backendId)).some((session) => session.status === 'idle');
      if (isBound) this.#sightings.set(backendId, seen + 1);
    }
  }
}

/** The backend of every live (idle) runtime bound to one of `providers`, by backend id (runtimes may share one). */
async function liveBindings(ctx: ServiceContext, providers: BackendProviderV1[]): Promise<Map<string, KeptBackend>> {
  const bound = new Map<string, KeptBackend>();
  for (const provider of providers) {
    for (const session of await listAllSessions(ctx, { status: 'idle', backendProviderId: provider.providerId })) {
      if (session.backend) bound.set(session.backend.backendId, { providerId: session.backend.providerId, resource: session.backend.resource });
    }
  }
  return bound;
}
