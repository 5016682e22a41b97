import { RuntimectlError } from '@runtimectl/provider';

/**
 * A diff (or a read of a checkpoint's files) needs a content manifest the checkpoint or runtime
 * does not have: its provider produces none, or the checkpoint predates manifests.
 */
export class ManifestUnavailableError extends RuntimectlError {
  constructor(subject: { checkpoint_id: string } | { runtime_id: string }, why: string) {
    const named = 'checkpoint_id' in subject ? `checkpoint ${subject.checkpoint_id}` : `runtime ${subject.runtime_id}`;
    super('manifest_unavailable', `${named} has no content manifest: ${why}`, { details: { ...subject } });
  }
}
