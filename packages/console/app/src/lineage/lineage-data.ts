import type { CheckpointView, RetentionVerdict, RuntimeRecord } from '../api/api-types';

/** Everything the lineage view draws, gathered once per load. */
export interface LineageData {
  rootRuntimeId: string;
  /** The root and every runtime checked out or forked from it, transitively. */
  runtimes: RuntimeRecord[];
  /** Every checkpoint of those runtimes. */
  checkpoints: CheckpointView[];
  /** Retention verdicts by checkpoint id; null when the key may not read the preview (not admin). */
  verdicts: Map<string, RetentionVerdict> | null;
  /** Providers whose checkpoints can carry a snapshot: for them, no snapshot means it was deleted. */
  snapshottingProviders: Set<string>;
}

export type SnapshotState = 'kept' | 'deleted' | 'none';

export function snapshotStateOf(checkpoint: CheckpointView, snapshottingProviders: Set<string>): SnapshotState {
  if (checkpoint.has_provider_snapshot) return 'kept';
  return snapshottingProviders.has(checkpoint.provider) ? 'deleted' : 'none';
}

export const SNAPSHOT_STATE_TEXT: Record<SnapshotState, string> = {
  kept: 'snapshot kept',
  deleted: 'snapshot deleted',
  none: 'no snapshot (provider takes none)',
};
