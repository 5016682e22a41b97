import type { RuntimeOpenRequest } from '../wire/runtime-lifecycle';

/** A new runtime's TTL: the earlier of `expires_at_ms` and open time + `max_lifetime_ms`; none when neither is given. */
export function expiryOf(request: Pick<RuntimeOpenRequest, 'expires_at_ms' | 'max_lifetime_ms'>, openedAtMs: number): { expiresAtMs?: number } {
  const candidates = [request.expires_at_ms, request.max_lifetime_ms === undefined ? undefined : openedAtMs + request.max_lifetime_ms].filter(
    (value): value is number => value !== undefined,
  );
  return candidates.length === 0 ? {} : { expiresAtMs: Math.min(...candidates) };
}
