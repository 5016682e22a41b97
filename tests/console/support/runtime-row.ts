import type { Locator, Page } from 'playwright-core';

/** The Runtimes table (its caption names it). */
export function runtimesTable(page: Page): Locator {
  return page.getByRole('table', { name: 'Runtimes', exact: true });
}

/** The row of the Runtimes table whose runtime link is `runtimeId`. */
export function runtimeRow(page: Page, runtimeId: string): Locator {
  return runtimesTable(page)
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: runtimeId, exact: true }) });
}

/** Which of `runtimeIds` the Runtimes table shows now, in the given order. */
export async function shownRuntimeIds(page: Page, runtimeIds: readonly string[]): Promise<string[]> {
  const links = await runtimesTable(page).getByRole('link').allInnerTexts();
  const shown = new Set(links.map((text) => text.trim()));
  return runtimeIds.filter((id) => shown.has(id));
}

/**
 * The Status cell of a runtime's row (the table's second column). Matched on its own: a row's
 * text runs its cells together ("live-pausepaused…"), so a word test on the whole row is unsound.
 */
export function runtimeStatusCell(page: Page, runtimeId: string): Locator {
  return runtimeRow(page, runtimeId).getByRole('cell').nth(1);
}

/** Waits until the runtime's Status cell reads exactly `status`. */
export async function waitForStatus(page: Page, runtimeId: string, status: string, timeoutMs?: number): Promise<void> {
  await runtimeStatusCell(page, runtimeId)
    .filter({ hasText: new RegExp(`^\\s*${status}\\s*$`) })
    .waitFor(timeoutMs === undefined ? {} : { timeout: timeoutMs });
}
