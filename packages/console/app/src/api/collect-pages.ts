/** Follows `next_cursor` until the last page and returns every item: the console shows whole lists (runtimes, checkpoints). */
export async function collectPages<TItem, TPage extends { next_cursor: string | null }>(
  fetchPage: (cursor: string | undefined) => Promise<TPage>,
  itemsOf: (page: TPage) => TItem[],
  maxPages = 1_000,
): Promise<TItem[]> {
  const items: TItem[] = [];
  let cursor: string | undefined;
  for (let pageNumber = 0; pageNumber < maxPages; pageNumber += 1) {
    const page = await fetchPage(cursor);
    items.push(...itemsOf(page));
    if (!page.next_cursor) break;
    cursor = page.next_cursor;
  }
  return items;
}
