import type { ManifestDelta } from '@runtimectl/provider';
import { applyManifestDelta } from '../manifest/apply-delta';
import { MissingTreeObjectError } from '../manifest/diff-trees';
import type { CheckpointManifest } from './checkpoint-manifest';
import type { ServiceContext } from './service-context';

/**
 * How far back from the runtime's head a delta's base snapshot is looked for: a checkpoint taken
 * while a job ran leaves the live workspace on its older layer, so the base can be an ancestor.
 */
const MAX_ANCESTORS = 16;

/**
 * The manifest a provider's delta gives: applied to the manifest recorded for its base snapshot
 * (on the head checkpoint or one of its last ancestors), so it costs what changed. Null — the
 * caller walks the workspace instead — when no such checkpoint has a manifest or the delta does
 * not apply to it (malformed, or a tree object missing).
 */
export async function manifestFromDelta(ctx: ServiceContext, headCheckpointId: string | null, delta: ManifestDelta): Promise<CheckpointManifest | null> {
  const baseRoot = delta.baseSnapshotId === null ? null : await baseManifestRoot(ctx, headCheckpointId, delta.baseSnapshotId);
  if (baseRoot === undefined) return null;
  try {
    const { root, objects } = await applyManifestDelta(baseRoot, delta, (hashes) => ctx.store.getTreeObjects(hashes));
    return { manifestRoot: root, treeObjects: objects };
  } catch (error) {
    if (error instanceof TypeError || error instanceof MissingTreeObjectError) return null;
    throw error;
  }
}

/** The manifest root recorded for provider snapshot `snapshotId` on the head or an ancestor; undefined when none has it. */
async function baseManifestRoot(ctx: ServiceContext, headCheckpointId: string | null, snapshotId: string): Promise<string | undefined> {
  let checkpointId = headCheckpointId;
  for (let step = 0; checkpointId !== null && step <= MAX_ANCESTORS; step++) {
    const checkpoint = await ctx.store.getCheckpoint(checkpointId);
    if (!checkpoint) return undefined;
    if (checkpoint.backendRef?.providerSnapshotId === snapshotId) return checkpoint.manifestRoot ?? undefined;
    checkpointId = checkpoint.parentCheckpointId;
  }
  return undefined;
}
