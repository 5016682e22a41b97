import { RuntimectlError } from '@runtimectl/provider';

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

/** No webhook with this id is configured. */
export class WebhookNotFoundError extends RuntimectlError {
  constructor(readonly webhookId: string) {
    super('webhook_not_found', `webhook ${webhookId} not found`, { details: { webhook_id: webhookId } });
  }
}
