import type { BackendCheckpointOutcome } from '../backend/backend-manager';
import type { OperationLeases } from '../backend/snapshot-guard';
import type { TrackedBackend } from '../backend/tracked-backend';
import { buildTrees } from '../manifest/build-trees';
import type { ManifestEntry } from '@runtimectl/provider';
import type { TreeObject } from '../manifest/tree-object';
import type { BackendBinding, SessionRecord } from '../store/records';
import { manifestFromDelta } from './manifest-from-delta';
import { reusableRefOf } from './clean-state';
import type { ServiceContext } from './service-context';

/** What a checkpoint records of its workspace's content: the root tree hash and the tree objects to store with it. */
export interface CheckpointManifest {
  manifestRoot: string | null;
  treeObjects: TreeObject[];
}

const NO_MANIFEST: CheckpointManifest = Object.freeze({ manifestRoot: null, treeObjects: [] });

/**
 * The manifest of `backend`'s workspace as it is now, as Merkle trees: the provider's
 * `manifest()` (called under the runtime's exclusive lock, right after the snapshot), built into
 * tree objects. None when the provider produces no manifest.
 */
export async function captureManifest(backend: TrackedBackend): Promise<CheckpointManifest> {
  const manifest = backend.manifest;
  return manifest ? manifestOf(await manifest()) : NO_MANIFEST;
}

function manifestOf(entries: ManifestEntry[]): CheckpointManifest {
  const { root, objects } = buildTrees(entries);
  return { manifestRoot: root, treeObjects: objects };
}

/**
 * The manifest of a checkpoint that reused the clean checkpoint's snapshot: that checkpoint's
 * root (the workspace has not changed since), no walk; a walk only when that checkpoint has none.
 */
export async function reusedManifest(ctx: ServiceContext, binding: BackendBinding, backend: TrackedBackend): Promise<CheckpointManifest> {
  const clean = binding.cleanCheckpointId ? await ctx.store.getCheckpoint(binding.cleanCheckpointId) : undefined;
  const root = clean?.manifestRoot;
  return root ? { manifestRoot: root, treeObjects: [] } : captureManifest(backend);
}

/**
 * A checkpoint's capture of a live backend (checkpoint and pause): the snapshot (or the clean
 * one, reused) and the workspace's manifest (reused with it; the one the new snapshot carries
 * when the provider gave it, so the workspace is walked once, or its delta applied to the base
 * snapshot's manifest; else the backend's, walked now).
 */
export async function captureBackend(
  ctx: ServiceContext,
  session: Pick<SessionRecord, 'runtimeId' | 'headCheckpointId'>,
  backend: TrackedBackend,
  binding: BackendBinding,
  name: string | undefined,
  leases: OperationLeases,
): Promise<BackendCheckpointOutcome & CheckpointManifest> {
  const outcome = await ctx.backends.checkpoint(session.runtimeId, binding, name, leases, await reusableRefOf(ctx, binding));
  if (outcome.reused) return { ...outcome, ...(await reusedManifest(ctx, binding, backend)) };
  const fromDelta = outcome.manifestDelta && (await manifestFromDelta(ctx, session.headCheckpointId, outcome.manifestDelta));
  if (fromDelta) return { ...outcome, ...fromDelta };
  return { ...outcome, ...(outcome.manifest ? manifestOf(outcome.manifest) : await captureManifest(backend)) };
}
