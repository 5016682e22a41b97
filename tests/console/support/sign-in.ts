import type { Page } from 'playwright-core';

/** Fills the sign-in form with `key` and waits for the signed-in header (its Main navigation). */
export async function signIn(page: Page, key: string, options: { remember?: boolean } = {}): Promise<void> {
  await page.getByLabel('API key', { exact: true }).fill(key);
  if (options.remember) await page.getByRole('checkbox', { name: 'Remember on this device' }).check();
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}
