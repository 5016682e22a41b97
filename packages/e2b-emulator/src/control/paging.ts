/**
 * Cursor paging as E2B does it: `limit` items per page, the `x-next-token` response header
 * set only when more items follow. The token encodes the sort key of the last item sent, so
 * items created or deleted between pages never shift what the next page returns.
 */
import { ApiError } from '../http/api-error.js';

/** E2B's default and largest page size. */
export const MAX_PAGE_LIMIT = 100;

export interface Page<T> {
  items: T[];
  nextToken: string | undefined;
}

/** A total order on items: time, then id. */
export interface SortKey {
  timeMs: number;
  id: string;
}

export function compareKeys(left: SortKey, right: SortKey): number {
  return left.timeMs - right.timeMs || left.id.localeCompare(right.id);
}

/**
 * One page of `sorted` (already in the requested order, `descending` telling which) after the
 * cursor `nextToken`. Throws ApiError(400) for a malformed token or limit.
 */
export function paginate<T>(
  sorted: T[],
  keyOf: (item: T) => SortKey,
  descending: boolean,
  limitParam: string | null,
  nextToken: string | null,
): Page<T> {
  const limit = parseLimit(limitParam);
  let remaining = sorted;
  if (nextToken) {
    const cursor = decodeToken(nextToken);
    remaining = sorted.filter((item) => {
      const order = compareKeys(keyOf(item), cursor);
      return descending ? order < 0 : order > 0;
    });
  }
  const items = remaining.slice(0, limit);
  const last = items.at(-1);
  const more = remaining.length > items.length && last !== undefined;
  return { items, nextToken: more ? encodeToken(keyOf(last)) : undefined };
}

function parseLimit(limitParam: string | null): number {
  if (limitParam === null || limitParam === '') return MAX_PAGE_LIMIT;
  const limit = Number(limitParam);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT) {
    throw new ApiError(400, `limit must be an integer between 1 and ${MAX_PAGE_LIMIT}`);
  }
  return limit;
}

function encodeToken(key: SortKey): string {
  return Buffer.from(JSON.stringify([key.timeMs, key.id]), 'utf8').toString('base64url');
}

function decodeToken(token: string): SortKey {
  try {
    const value: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (Array.isArray(value) && typeof value[0] === 'number' && typeof value[1] === 'string') {
      return { timeMs: value[0], id: value[1] };
    }
  } catch {
    // fall through to the 400 below
  }
  throw new ApiError(400, 'invalid next token');
}
