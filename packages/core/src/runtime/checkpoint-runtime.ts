import { OperationLeases } from '../backend/snapshot-guard';
import type { BackendCheckpointRef, CheckpointRecord, SessionRecord, SessionSnapshot } from '../store/records';
import { MAX_SKIPPED_PATHS, type CheckpointKind, type RuntimeCheckpointRequest, type RuntimeCheckpointResult } from '../wire/checkpoints';
import { assertOperable, loadCheckpoint, loadServedSession, withLiveBackend, withRuntimeLock } from './runtime-access';
import { bindingAfterCapture } from './clean-state';
import { captureBackend } from './checkpoint-manifest';
import { toRuntimeRecord } from './runtime-view';
import { idempotentCompletion } from './idempotent-completion';
import type { OperationScope, ServiceContext } from './service-context';
import { lifecycleEvent } from './lifecycle-events';

export function sessionSnapshotOf(session: SessionRecord): SessionSnapshot {
  return {
    conversationId: session.conversationId,
    senderId: session.senderId,
    providerId: session.providerId,
    providerOptions: session.providerOptions,
    sessionState: session.sessionState,
    metadata: session.metadata,
    ...(session.verify != null ? { verify: session.verify } : {}),
  };
}

/** The answer's `background_processes`: present when jobs ran as the checkpoint's snapshot was taken. */
export function backgroundProcessesOf(ref: BackendCheckpointRef | null): { background_processes?: number } {
  const count = ref?.backgroundProcesses;
  return count ? { background_processes: count } : {};
}

/** Shared by every checkpoint created without metadata (stored records are frozen). */
const NO_METADATA: CheckpointRecord['metadata'] = Object.freeze({});

/**
 * A new checkpoint record of `session`, parented on its current head. Frozen, like the memory
 * store's records: when its nested parts are frozen too (no new metadata, a session and a ref
 * read from that store) the store keeps this very object instead of copying it, which saves
 * the copy and, for every checkpoint kept in memory, the copy's larger layout.
 */
export function newCheckpointRecord(
  ctx: ServiceContext,
  session: SessionRecord,
  kind: CheckpointKind,
  request: { name?: string | undefined; metadata?: CheckpointRecord['metadata'] | undefined },
  backendRef: BackendCheckpointRef | null,
  manifestRoot: string | null,
): CheckpointRecord {
  return Object.freeze({
    checkpointId: ctx.ids.checkpointId(),
    runtimeId: session.runtimeId,
    parentCheckpointId: session.headCheckpointId,
    kind,
    name: request.name ?? null,
    metadata: request.metadata ?? NO_METADATA,
    createdAtMs: ctx.clock(),
    session: Object.freeze(sessionSnapshotOf(session)),
    backendRef,
    manifestRoot,
  });
}

/** A paused runtime's checkpoint: its pause checkpoint's snapshot and manifest, reused. */
async function pausedCapture(ctx: ServiceContext, pausedCheckpointId: string) {
  const paused = await loadCheckpoint(ctx, pausedCheckpointId);
  return { ref: paused.backendRef, reused: true, skipped: [], manifestRoot: paused.manifestRoot ?? null, treeObjects: [] };
}

/**
 * Captures an idle (or paused) runtime as a checkpoint: the session snapshot plus a backend
 * ref. A clean backend reuses its previous snapshot (no provider call); a paused runtime's
 * checkpoint reuses its pause snapshot. The checkpoint becomes the runtime's head.
 */
export async function checkpointRuntime(
  ctx: ServiceContext,
  request: RuntimeCheckpointRequest,
  scope: OperationScope,
): Promise<RuntimeCheckpointResult> {
  return withRuntimeLock(ctx, request.runtime_id, 'exclusive', async (ctx) => {
    const session = await loadServedSession(ctx, request.runtime_id);
    scope.providerId = session.providerId;
    assertOperable(ctx, session);
    const leases = new OperationLeases();
    try {
      const { ref, reused, skipped, manifestRoot, treeObjects } =
        session.status === 'paused' && session.pausedCheckpointId
          ? await pausedCapture(ctx, session.pausedCheckpointId)
          : await withLiveBackend(ctx, session, scope, (backend, binding) => captureBackend(ctx, session, backend, binding, request.name, leases));
      const checkpoint = newCheckpointRecord(ctx, session, 'checkpoint', request, ref, manifestRoot);
      // Under the exclusive lease no operation wrote since the capture: the backend is clean as of
      // it, unless a process of its commands was running when it was taken.
      const backend = session.backend && bindingAfterCapture(session.backend, checkpoint);
      // Frozen for the same reason as the checkpoint record: the memory store keeps it uncopied.
      const updated: SessionRecord = Object.freeze({ ...session, backend, headCheckpointId: checkpoint.checkpointId });
      const result: RuntimeCheckpointResult = {
        checkpoint_id: checkpoint.checkpointId,
        runtime: toRuntimeRecord(updated),
        parent_checkpoint_id: checkpoint.parentCheckpointId,
        created_at_ms: checkpoint.createdAtMs,
        name: checkpoint.name,
        metadata: checkpoint.metadata,
        reused_backend_snapshot: reused,
        manifest_root: manifestRoot,
        ...(skipped.length > 0 ? { skipped_paths: skipped.slice(0, MAX_SKIPPED_PATHS) } : {}),
        ...backgroundProcessesOf(ref),
      };
      await ctx.store.commit({
        checkpoints: [checkpoint],
        sessions: [updated],
        resolvedIntentIds: ref ? [ref.refId] : [],
        treeObjects,
        events: [lifecycleEvent('checkpoint.created', checkpoint.createdAtMs, checkpoint, { reused_backend_snapshot: reused, ...backgroundProcessesOf(ref) })],
        ...idempotentCompletion(scope, result),
      });
      return result;
    } finally {
      await leases.releaseAll();
    }
  });
}
