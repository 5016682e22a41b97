import { createHash } from 'node:crypto';

/** Printable ASCII without spaces, 1–255 characters (UUIDs, ULIDs, client-made keys). */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export function isValidIdempotencyKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/**
 * What makes two requests "the same" for one key: method, route and body. A client retrying
 * sends the same bytes, which parse and serialise to the same JSON.
 */
export function requestFingerprint(method: string, route: string, body: unknown): string {
  return `sha256:${createHash('sha256').update(`${method} ${route}\n${JSON.stringify(body ?? null)}`).digest('hex')}`;
}

/**
 * Whether a response is kept for replay. Outcomes that a retry may change are not: a conflict
 * with a concurrent operation (409), capacity (429) and server or provider failures (5xx).
 * Kept: successes and the client's own mistakes, which a retry would only repeat.
 */
export function isReplayableStatus(status: number): boolean {
  return (status >= 200 && status < 300) || (status >= 400 && status < 500 && status !== 409 && status !== 429);
}
