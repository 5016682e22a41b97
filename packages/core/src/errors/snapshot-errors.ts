import { RuntimectlError } from './runtimectl-error';

/**
 * Deleting the snapshot would break a paused runtime's resume point or a live backend made from
 * it. `subject` names what was to be deleted ("checkpoint rtcp_…", "snapshot …").
 */
export class SnapshotInUseError extends RuntimectlError {
  constructor(
    readonly subject: string,
    readonly runtimeIds: readonly string[],
    /** Who needs it when no runtime can be named (e.g. "a sandbox made from it still exists"). */
    holder = 'an operation in flight',
  ) {
    const holders = runtimeIds.length > 0 ? runtimeIds.join(', ') : holder;
    super('snapshot_in_use', `the snapshot of ${subject} is still needed by ${holders}`, {
      details: { runtime_ids: [...runtimeIds] },
    });
  }
}

/** checkout/resume from a checkpoint whose provider snapshot was deleted. */
export class CheckpointSnapshotDeletedError extends RuntimectlError {
  constructor(readonly checkpointId: string) {
    super('checkpoint_snapshot_deleted', `the provider snapshot of checkpoint ${checkpointId} was deleted`, {
      details: { checkpoint_id: checkpointId },
    });
  }
}
