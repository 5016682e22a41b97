import { expect } from 'vitest';
import type { Page } from '@runtimectl/core';

/**
 * Follows `nextCursor` from the first page to the one that returns null, checking on the way
 * that every page with a next cursor is full and that the cursor is its last id. Returns the ids
 * in the order seen, so the caller can assert no duplicates and no gaps.
 */
export async function walkPages<T>(
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
  limit: number,
  idOf: (item: T) => string,
): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let pages = 1; pages <= 1_000; pages += 1) {
    const page = await fetchPage(cursor);
    expect(page.items.length, `page ${pages} size`).toBeLessThanOrEqual(limit);
    ids.push(...page.items.map(idOf));
    if (page.nextCursor === null) return { ids, pages };
    expect(page.items.length, 'a page with a next cursor is full').toBe(limit);
    expect(page.nextCursor, 'the cursor is the last id of the page').toBe(idOf(page.items.at(-1)!));
    cursor = page.nextCursor;
  }
  throw new Error('paging never returned nextCursor null');
}
