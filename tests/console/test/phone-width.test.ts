import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hasChromium } from '../support/chromium-path';
import { checkpointTree, selectCheckpoint } from '../support/checkpoint-node';
import { gotoConsole, PHONE } from '../support/console-rig';
import { pageOverflow } from '../support/page-overflow';
import { saveScreenshot } from '../support/save-screenshot';
import { useShowcaseRig } from '../support/showcase-rig';

/** Every view at 390 px: the page itself never scrolls sideways (wide tables may scroll in their own box). */
describe.skipIf(!hasChromium)('the console at phone width (390 px)', () => {
  const fixture = useShowcaseRig();

  async function expectNoOverflow(page: Page, view: string): Promise<void> {
    const { scrollWidth, innerWidth } = await pageOverflow(page);
    expect(innerWidth).toBe(PHONE.width);
    expect(scrollWidth, `${view}: the page is ${scrollWidth} px wide in a ${innerWidth} px window`).toBeLessThanOrEqual(innerWidth + 1);
  }

  it('sign-in', async () => {
    const page = await fixture.rig.newPage(PHONE);
    await gotoConsole(page, fixture.rig.daemon.consoleUrl);
    await page.getByLabel('API key', { exact: true }).waitFor();
    await expectNoOverflow(page, 'sign-in');
  });

  it('runtimes, and the main navigation reaches every view', async () => {
    const page = await fixture.rig.openConsole('/runtimes', PHONE);
    await page.getByRole('link', { name: fixture.showcase.root, exact: true }).waitFor();
    await expectNoOverflow(page, 'runtimes');
    await saveScreenshot(page, 'phone-runtimes');

    // The nav may fold behind a menu button at this width: open it when there is one.
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const [link, heading] of [
      ['Events', 'Events'],
      ['Fleet', 'Fleet'],
      ['Runtimes', 'Runtimes'],
    ] as const) {
      const target = nav.getByRole('link', { name: link, exact: true });
      if (!(await target.isVisible())) await page.getByRole('button', { name: /menu|navigation/i }).click();
      await target.click();
      await page.getByRole('heading', { name: heading, exact: true }).waitFor();
      await expectNoOverflow(page, link);
    }
  });

  it('lineage with a selected checkpoint', async () => {
    const page = await fixture.rig.openConsole(`/runtimes/${fixture.showcase.root}`, PHONE);
    await expect.poll(() => checkpointTree(page).getAttribute('data-checkpoint-count')).toBe('3');
    await selectCheckpoint(page, fixture.showcase.routes);
    await expectNoOverflow(page, 'lineage');
    await saveScreenshot(page, 'phone-lineage');
  });

  it('diff with a file shown', async () => {
    const page = await fixture.rig.openConsole(`/diff?from=${fixture.showcase.scaffold}&to=${fixture.showcase.routes}`, PHONE);
    await page.getByRole('table', { name: 'Changed files' }).getByText(fixture.showcase.changedPath, { exact: true }).click();
    await page.getByRole('region', { name: `Diff of ${fixture.showcase.changedPath}` }).waitFor();
    await expectNoOverflow(page, 'diff');
  });

  it('files with a file’s contents', async () => {
    const page = await fixture.rig.openConsole(`/checkpoints/${fixture.showcase.routes}/files?path=${encodeURIComponent(fixture.showcase.nestedDirectory)}`, PHONE);
    await page.getByRole('button', { name: fixture.showcase.nestedFile, exact: true }).click();
    await page.getByRole('region', { name: `Contents of ${fixture.showcase.nestedPath}` }).waitFor();
    await expectNoOverflow(page, 'files');
  });

  it('events and fleet', async () => {
    const page = await fixture.rig.openConsole('/events', PHONE);
    await page.getByRole('log', { name: 'Live events' }).getByText('checkpoint.created').first().waitFor();
    await expectNoOverflow(page, 'events');
    const fleet = await fixture.rig.openConsole('/fleet', PHONE);
    await fleet.getByRole('table', { name: 'Nodes' }).waitFor();
    await expectNoOverflow(fleet, 'fleet');
  });
});
