import type { BackendBinding, BackendCheckpointRef, SessionRecord } from '../store/records';
import type { ServiceContext } from './service-context';

/**
 * Clean/dirty state lives in the store (`BackendBinding.cleanCheckpointId`), so every node and
 * every restart agree on it. A runtime is clean only when no API mutation happened since its
 * last snapshot *and* nothing else could have changed its workspace since: the provider counted
 * no live process of the backend's commands right before that snapshot (`ref.backgroundProcesses
 * === 0`: a job an exec left running writes with no API call). So a checkpoint, checkout, resume
 * or pause commits the binding clean with the checkpoint that captures it only when its snapshot
 * was taken at rest, and dirty otherwise; the first mutating data operation after that commits
 * it dirty before it reaches the provider (never a moment where a write has landed and the store
 * still says clean); an already-dirty runtime costs no store write.
 */

/** Whether `ref`'s snapshot was taken with nothing of the backend's commands running (counted 0 before it). */
export function takenAtRest(ref: BackendCheckpointRef | null | undefined): boolean {
  return ref?.backgroundProcesses === 0;
}

/**
 * `binding` as the capture `checkpoint` leaves it: clean as of that checkpoint, with nothing
 * running, when its snapshot was taken at rest (the snapshot is the workspace until the next
 * mutation), else dirty (a process may still change the workspace: the next checkpoint counts
 * and snapshots again).
 */
export function bindingAfterCapture(binding: BackendBinding, checkpoint: { checkpointId: string; backendRef: BackendCheckpointRef | null }): BackendBinding {
  const atRest = takenAtRest(checkpoint.backendRef);
  // Frozen (its parts come from stored records): the memory store keeps it, and the session around it, uncopied.
  return Object.freeze({ ...binding, cleanCheckpointId: atRest ? checkpoint.checkpointId : null, nothingRunning: atRest });
}

/**
 * The backend ref a checkpoint of this binding may reuse instead of a new snapshot: the clean
 * checkpoint's, unless its snapshot has been deleted since (or it belongs to another provider),
 * and only when it was taken at rest (a ref recorded before counts existed is not).
 */
export async function reusableRefOf(ctx: ServiceContext, binding: BackendBinding): Promise<BackendCheckpointRef | null> {
  if (!binding.cleanCheckpointId) return null;
  const ref = (await ctx.store.getCheckpoint(binding.cleanCheckpointId))?.backendRef;
  if (!ref || ref.providerId !== binding.providerId || ref.snapshotDeletedAtMs !== null || !takenAtRest(ref)) return null;
  return ref;
}

/** What a mutating operation may leave behind: changed files only (file API), or processes too (exec). */
export type Mutation = 'files' | 'processes';

/**
 * Before a mutating operation reaches the provider: commits the runtime dirty when the store
 * says clean, and — for an exec, which may leave processes running — no longer known to run
 * nothing (under the caller's shared lease, so its fence guards it); no store write when that
 * is recorded already. Conservative: an operation the provider then refuses up front still
 * leaves the runtime dirty (its next checkpoint makes a snapshot), since another operation may
 * have written meanwhile.
 */
export async function recordDirty(ctx: ServiceContext, session: SessionRecord, binding: BackendBinding, mutation: Mutation): Promise<void> {
  const startsProcesses = mutation === 'processes' && binding.nothingRunning === true;
  if (!binding.cleanCheckpointId && !startsProcesses) return;
  const backend = { ...binding, cleanCheckpointId: null, ...(startsProcesses ? { nothingRunning: false } : {}) };
  await ctx.store.commit({ sessions: [{ ...session, backend }] });
}
