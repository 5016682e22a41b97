import type { BackendBinding, BackendCheckpointRef, SessionRecord } from '../store/records';
import type { ServiceContext } from './service-context';

/**
 * Clean/dirty state lives in the store (`BackendBinding.cleanCheckpointId`), so every node and
 * every restart agree on it. A checkpoint, checkout or resume commits the binding clean with
 * the checkpoint that captures it; the first mutating data operation after that commits it
 * dirty before it reaches the provider (never a moment where a write has landed and the store
 * still says clean); an already-dirty runtime costs no store write.
 */

/** `binding` recorded as captured, as it is now, by `checkpointId`. */
export function cleanBinding(binding: BackendBinding, checkpointId: string): BackendBinding {
  return { ...binding, cleanCheckpointId: checkpointId };
}

/**
 * The backend ref a checkpoint of this binding may reuse instead of a new snapshot: the clean
 * checkpoint's, unless its snapshot has been deleted since (or it belongs to another provider).
 */
export async function reusableRefOf(ctx: ServiceContext, binding: BackendBinding): Promise<BackendCheckpointRef | null> {
  if (!binding.cleanCheckpointId) return null;
  const ref = (await ctx.store.getCheckpoint(binding.cleanCheckpointId))?.backendRef;
  if (!ref || ref.providerId !== binding.providerId || ref.snapshotDeletedAtMs !== null) return null;
  return ref;
}

/**
 * Before a mutating operation reaches the provider: commits the runtime dirty when the store
 * says clean (under the caller's shared lease, so its fence guards it); nothing when already dirty.
 * Conservative: an operation the provider then refuses up front still leaves the runtime dirty
 * (its next checkpoint makes a snapshot), since another operation may have written meanwhile.
 */
export async function recordDirty(ctx: ServiceContext, session: SessionRecord, binding: BackendBinding): Promise<void> {
  if (!binding.cleanCheckpointId) return;
  await ctx.store.commit({ sessions: [{ ...session, backend: { ...binding, cleanCheckpointId: null } }] });
}
