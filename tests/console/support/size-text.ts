import type { Locator } from 'playwright-core';

/**
 * What a table row says about sizes, to match a byte count against: its text (sizes as people
 * read them, e.g. "1.5 MiB") and its elements' titles (where the exact count is kept).
 */
export async function sizeText(row: Locator): Promise<string> {
  const titles = await row.locator('[title]').evaluateAll((elements) => elements.map((element) => element.getAttribute('title') ?? ''));
  return `${await row.innerText()} ${titles.join(' ')}`.replace(/[,\u202f\u00a0]/g, '');
}
