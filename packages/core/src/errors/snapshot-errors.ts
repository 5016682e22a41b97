import { RuntimectlError } from '@runtimectl/provider';

/** checkout/resume from a checkpoint whose provider snapshot was deleted. */
export class CheckpointSnapshotDeletedError extends RuntimectlError {
  constructor(readonly checkpointId: string) {
    super('checkpoint_snapshot_deleted', `the provider snapshot of checkpoint ${checkpointId} was deleted`, {
      details: { checkpoint_id: checkpointId },
    });
  }
}
