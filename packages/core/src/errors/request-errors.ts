import { RuntimectlError } from './runtimectl-error';

/** The request is malformed: bad field, bad base64, a path outside the workspace … */
export class InvalidRequestError extends RuntimectlError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('invalid_request', message, details === undefined ? {} : { details });
  }
}

/** An Idempotency-Key was sent again with a different request body. */
export class IdempotencyKeyReusedError extends RuntimectlError {
  constructor(readonly idempotencyKey: string) {
    super('idempotency_key_reused', `Idempotency-Key ${idempotencyKey} was already used with a different request`);
  }
}
