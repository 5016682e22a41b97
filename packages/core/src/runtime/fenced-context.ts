import { LeaseLostError } from '../errors/fleet-errors';
import type { RuntimeFence } from '../store/fleet-store';
import type { RuntimeStore, StoreBatch } from '../store/runtime-store';
import { storeWithCommit } from '../store/store-with-commit';
import type { ServiceContext } from './service-context';

/**
 * A commit refused because the operation's lease lapsed leaves provider work its batch would have
 * accounted for (a snapshot, a backend). Its intents are handed to the fleet's maintenance holder
 * (node id cleared, as a restarted node hands its own over): this node lives on, so nobody would
 * otherwise sweep them until it restarts or dies.
 */
async function handOverIntents(store: RuntimeStore, intentIds: readonly string[]): Promise<void> {
  if (intentIds.length === 0) return;
  const ids = new Set(intentIds);
  const intents = (await store.listIntents()).filter((intent) => ids.has(intent.intentId));
  if (intents.length > 0) await store.commit({ intents: intents.map((intent) => ({ ...intent, nodeId: null })) });
}

/** `store` whose every commit also carries `fence` (reads and everything else go to `store` as they are). */
export function fencedStore(store: RuntimeStore, fence: RuntimeFence): RuntimeStore {
  const commit = async (batch: StoreBatch) => {
    try {
      await store.commit({ ...batch, fences: [...(batch.fences ?? []), fence] });
    } catch (error) {
      if (LeaseLostError.isInstance(error)) await handOverIntents(store, batch.resolvedIntentIds ?? []).catch(() => {});
      throw error;
    }
  };
  return storeWithCommit(store, commit);
}

/** The context of an operation holding `fence`: its commits, the backends' intents among them, carry it. */
export function underFence(ctx: ServiceContext, fence: RuntimeFence): ServiceContext {
  const store = fencedStore(ctx.store, fence);
  return { ...ctx, store, backends: ctx.backends.withStore(store) };
}
