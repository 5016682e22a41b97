import type { BackendCheckpointRef } from '../store/records';

/**
 * The snapshot this process last made of one backend. Only for cleanup: a checkpoint whose
 * commit failed leaves a snapshot no record names, which close and pause then delete. (Whether
 * a checkpoint may reuse a snapshot is decided by the store: `BackendBinding.cleanCheckpointId`.)
 */
export class LastSnapshot {
  ref: BackendCheckpointRef | null = null;

  /** The provider snapshot is gone: nothing to clean up any more. */
  forget(snapshotId: string): void {
    if (this.ref?.providerSnapshotId === snapshotId) this.ref = null;
  }
}
