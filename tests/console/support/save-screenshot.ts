import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

/** `pnpm run screenshots` sets it; a plain run writes no file. */
export const SCREENSHOTS = process.env.RUNTIMECTL_CONSOLE_SCREENSHOTS === '1';

const DIRECTORY = fileURLToPath(new URL('../../../docs/console/', import.meta.url));

/** Saves `docs/console/<name>.png` (the viewport) when screenshots were asked for; otherwise nothing. */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  mkdirSync(DIRECTORY, { recursive: true });
  // Fonts and the last layout settle before the picture; animations stop on their last frame.
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: `${DIRECTORY}${name}.png`, animations: 'disabled' });
}
