import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './launch-browser';
import { signIn } from './sign-in';
import { ADMIN_TOKEN, startRuntimed, type Runtimed } from './start-runtimed';

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export interface ConsoleRig {
  daemon: Runtimed;
  browser: Browser;
  /** A fresh tab (its own context: no storage shared with other tests) at `viewport`, not signed in. */
  newPage(viewport?: { width: number; height: number }): Promise<Page>;
  /** A fresh tab signed in with the admin token, then at `#<route>` (e.g. `/runtimes/rt-1`). */
  openConsole(route?: string, viewport?: { width: number; height: number }): Promise<Page>;
  /** Errors the pages threw (uncaught exceptions), with their page's URL. */
  pageErrors: string[];
  /** Stops the browser and the daemon; then fails if any page threw an uncaught error. */
  close(): Promise<void>;
}

/** One daemon and one Chromium for a test file. */
export async function startConsoleRig(): Promise<ConsoleRig> {
  const daemon = await startRuntimed();
  let browser: Browser;
  try {
    browser = await launchBrowser();
  } catch (error) {
    await daemon.stop();
    throw error;
  }
  const pageErrors: string[] = [];
  const newPage = async (viewport = DESKTOP) => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    // Generous for a loaded CI machine, far below the test timeout: a missing element fails with its selector.
    page.setDefaultTimeout(10_000);
    page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
    return page;
  };
  return {
    daemon,
    browser,
    newPage,
    openConsole: async (route, viewport) => {
      const page = await newPage(viewport);
      await gotoConsole(page, daemon.consoleUrl);
      await signIn(page, ADMIN_TOKEN);
      if (route !== undefined) await goTo(page, route);
      return page;
    },
    pageErrors,
    close: async () => {
      await browser.close().catch(() => undefined);
      await daemon.stop();
      if (pageErrors.length > 0) throw new Error(`the console threw uncaught errors:\n${pageErrors.join('\n')}`);
    },
  };
}

/** Loads the console's page; a daemon that does not serve it fails here, saying so (not as a missing form). */
export async function gotoConsole(page: Page, consoleUrl: string): Promise<void> {
  const response = await page.goto(consoleUrl);
  if (!response?.ok()) {
    throw new Error(`runtimed answered ${response?.status() ?? 'nothing'} for ${consoleUrl}: is @runtimectl/console built and http.console on?`);
  }
}

/** Moves a signed-in tab to a hash route (`/runtimes`, `/diff?from=…`) without reloading it. */
export async function goTo(page: Page, route: string): Promise<void> {
  await page.evaluate((hash) => {
    window.location.hash = hash;
  }, `#${route}`);
}
