import { RuntimectlError } from '@runtimectl/provider';

/** An Idempotency-Key was sent again with a different request body. */
export class IdempotencyKeyReusedError extends RuntimectlError {
  constructor(readonly idempotencyKey: string) {
    super('idempotency_key_reused', `Idempotency-Key ${idempotencyKey} was already used with a different request`);
  }
}
