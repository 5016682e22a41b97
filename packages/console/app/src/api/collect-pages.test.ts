import { describe, expect, it } from 'vitest';
import { collectPages } from './collect-pages';

describe('collectPages', () => {
  it('follows next_cursor until it is null', async () => {
    const pages: Record<string, { items: number[]; next_cursor: string | null }> = {
      start: { items: [1, 2], next_cursor: 'b' },
      b: { items: [3], next_cursor: 'c' },
      c: { items: [4], next_cursor: null },
    };
    const seen: Array<string | undefined> = [];
    const items = await collectPages(
      async (cursor) => {
        seen.push(cursor);
        return pages[cursor ?? 'start']!;
      },
      (page) => page.items,
    );
    expect(items).toEqual([1, 2, 3, 4]);
    expect(seen).toEqual([undefined, 'b', 'c']);
  });

  it('stops at the page cap', async () => {
    const items = await collectPages(async () => ({ items: [0], next_cursor: 'again' }), (page) => page.items, 3);
    expect(items).toHaveLength(3);
  });
});
