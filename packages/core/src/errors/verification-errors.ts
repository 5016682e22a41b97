import { RuntimectlError } from '@runtimectl/provider';

/** One path where a restored workspace differs from its checkpoint's manifest (as a diff names it). */
export interface DifferingPath {
  path: string;
  change: 'added' | 'removed' | 'modified' | 'mode_changed' | 'type_changed';
}

/**
 * A backend restored from a checkpoint (checkout, fork, resume) does not hold the workspace the
 * checkpoint's manifest records: the provider lost or altered files. `details` lists up to 100
 * differing paths (`truncated` when there were more); never a provider id or host path.
 */
export class CheckpointVerificationFailedError extends RuntimectlError {
  constructor(checkpointId: string, differingPaths: readonly DifferingPath[], truncated: boolean) {
    super(
      'checkpoint_verification_failed',
      `the workspace restored from checkpoint ${checkpointId} differs from its manifest (${differingPaths.length}${truncated ? '+' : ''} ${differingPaths.length === 1 && !truncated ? 'path' : 'paths'})`,
      { details: { checkpoint_id: checkpointId, differing_paths: differingPaths.map(({ path, change }) => ({ path, change })), truncated } },
    );
  }
}
