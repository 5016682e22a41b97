import type { StoreBatch } from '../store/runtime-store';
import type { OperationScope } from './service-context';

/**
 * The batch fragment that completes the caller's Idempotency-Key claim with `result`, to be
 * committed together with the state the result describes. Empty without a claim.
 */
export function idempotentCompletion(scope: OperationScope, result: unknown): Pick<StoreBatch, 'idempotencyRecords'> {
  if (!scope.idempotency) return {};
  return {
    idempotencyRecords: [{ ...scope.idempotency, state: 'completed', statusCode: 200, responseBody: JSON.stringify(result) }],
  };
}
