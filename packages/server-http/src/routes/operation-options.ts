import type { OperationOptions } from '@runtimectl/core';
import type { FastifyRequest } from 'fastify';
import { idempotencyClaimOf } from '../idempotency/idempotency-hooks';
import { providerTimingOf } from '../provider-timing';

/**
 * What a handler of a state-changing operation passes to the service: the request's provider
 * timing, and its Idempotency-Key claim, which the operation completes in the same store commit
 * as its state (a crash can then never leave the work done while the key reads "in flight").
 */
export function operationOptionsOf(request: FastifyRequest): OperationOptions {
  const idempotency = idempotencyClaimOf(request);
  return idempotency ? { ...providerTimingOf(request), idempotency } : providerTimingOf(request);
}
