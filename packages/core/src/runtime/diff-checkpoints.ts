import { ManifestUnavailableError } from '../errors/manifest-errors';
import { buildTrees } from '../manifest/build-trees';
import { diffTrees, type TreeChange, type TreeReader } from '../manifest/diff-trees';
import type { CheckpointDiffRequest, CheckpointDiffResult, DiffEntry, DiffSummary } from '../wire/checkpoint-diff';
import { onBackend } from './data-operations';
import { loadCheckpoint } from './runtime-access';
import type { OperationScope, ServiceContext } from './service-context';
import { unstoredTreesFirst } from './unstored-trees';

const DEFAULT_DIFF_PAGE = 100;

/** The manifest root a checkpoint recorded; ManifestUnavailableError without one. */
export async function checkpointRoot(ctx: ServiceContext, checkpointId: string): Promise<string> {
  const checkpoint = await loadCheckpoint(ctx, checkpointId);
  if (!checkpoint.manifestRoot) {
    throw new ManifestUnavailableError({ checkpoint_id: checkpointId }, 'its provider produces none, or it was taken before manifests existed');
  }
  return checkpoint.manifestRoot;
}

/**
 * The live workspace's manifest, taken now as a data operation (the runtime's shared lease, an
 * idle runtime with a live backend), as trees read before the store's: they are not stored.
 */
async function liveTrees(ctx: ServiceContext, runtimeId: string, scope: OperationScope): Promise<{ root: string; read: TreeReader }> {
  const { root, objects } = await onBackend(ctx, runtimeId, scope, async (backend) => {
    const manifest = backend.manifest;
    if (!manifest) throw new ManifestUnavailableError({ runtime_id: runtimeId }, `its provider ${backend.providerId} produces none`);
    return buildTrees(await manifest());
  });
  return { root, read: unstoredTreesFirst(ctx.store, objects) };
}

/**
 * Compares a checkpoint's manifest with another checkpoint's or with a runtime's live
 * workspace (see diffTrees: a diff costs what changed). Pages through the changed paths in path
 * order; the cursor is the last path of the page (base64url), the summary counts every page.
 */
export async function diffCheckpoints(ctx: ServiceContext, request: CheckpointDiffRequest, scope: OperationScope): Promise<CheckpointDiffResult> {
  const fromRoot = await checkpointRoot(ctx, request.from_checkpoint_id);
  const { root: toRoot, read } =
    request.to_checkpoint_id !== undefined
      ? { root: await checkpointRoot(ctx, request.to_checkpoint_id), read: ctx.store.getTreeObjects.bind(ctx.store) }
      : await liveTrees(ctx, request.to_runtime_id!, scope);
  const changes = await diffTrees(fromRoot, toRoot, read);
  const after = request.cursor === undefined ? undefined : Buffer.from(request.cursor, 'base64url').toString('utf8');
  const remaining = after === undefined ? changes : changes.filter(({ path }) => path > after);
  const limit = request.limit ?? DEFAULT_DIFF_PAGE;
  const page = remaining.slice(0, limit);
  const last = page.at(-1);
  return {
    from_checkpoint_id: request.from_checkpoint_id,
    to_checkpoint_id: request.to_checkpoint_id ?? null,
    to_runtime_id: request.to_runtime_id ?? null,
    from_manifest_root: fromRoot,
    to_manifest_root: toRoot,
    entries: page.map(diffEntryOf),
    next_cursor: remaining.length > limit && last ? Buffer.from(last.path, 'utf8').toString('base64url') : null,
    summary: summaryOf(changes),
  };
}

/** One change as the wire tells it: each side's kind, size, mode and, for a symlink, target (null for a side that is absent). */
export function diffEntryOf({ path, change, before, after }: TreeChange): DiffEntry {
  return {
    path,
    change,
    old_kind: before?.kind ?? null,
    new_kind: after?.kind ?? null,
    old_size: before?.size ?? null,
    new_size: after?.size ?? null,
    old_mode: before?.mode ?? null,
    new_mode: after?.mode ?? null,
    old_target: before?.kind === 'symlink' ? before.target : null,
    new_target: after?.kind === 'symlink' ? after.target : null,
  };
}

function summaryOf(changes: readonly TreeChange[]): DiffSummary {
  const summary: DiffSummary = { added: 0, removed: 0, modified: 0, mode_changed: 0, type_changed: 0 };
  for (const { change } of changes) summary[change] += 1;
  return summary;
}
