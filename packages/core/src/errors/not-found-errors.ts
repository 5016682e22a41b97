import { RuntimectlError } from './runtimectl-error';

export class RuntimeNotFoundError extends RuntimectlError {
  constructor(readonly runtimeId: string) {
    super('runtime_not_found', `runtime ${runtimeId} not found`, { details: { runtime_id: runtimeId } });
  }
}

export class CheckpointNotFoundError extends RuntimectlError {
  constructor(readonly checkpointId: string) {
    super('checkpoint_not_found', `checkpoint ${checkpointId} not found`, {
      details: { checkpoint_id: checkpointId },
    });
  }
}

/** A file or directory the operation needs does not exist in the runtime's workspace. */
export class PathNotFoundError extends RuntimectlError {
  constructor(readonly path: string) {
    super('path_not_found', `path not found: ${path}`, { details: { path } });
  }
}

/** No webhook with this id is configured. */
export class WebhookNotFoundError extends RuntimectlError {
  constructor(readonly webhookId: string) {
    super('webhook_not_found', `webhook ${webhookId} not found`, { details: { webhook_id: webhookId } });
  }
}
