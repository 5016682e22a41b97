import type { Page } from 'playwright-core';

/** How wide the document is against the window: a page that scrolls sideways has scrollWidth > innerWidth. */
export function pageOverflow(page: Page): Promise<{ scrollWidth: number; innerWidth: number }> {
  return page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
}
