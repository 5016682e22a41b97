import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hasChromium } from '../support/chromium-path';
import { checkpointTree, selectCheckpoint } from '../support/checkpoint-node';
import { gotoConsole } from '../support/console-rig';
import { saveScreenshot } from '../support/save-screenshot';
import { useShowcaseRig } from '../support/showcase-rig';
import { seriousAxeViolations } from '../support/serious-axe-violations';

/**
 * axe-core on every view in the state a user sees it (data loaded, a node selected, a file open,
 * the confirm dialog up): no `serious` or `critical` violation. With RUNTIMECTL_CONSOLE_SCREENSHOTS=1
 * each view is also saved to docs/console/<view>.png at 1280×800.
 */
describe.skipIf(!hasChromium)('accessibility of every view (axe-core)', () => {
  const fixture = useShowcaseRig();

  async function check(page: Page, view: string): Promise<void> {
    expect(await seriousAxeViolations(page), `${view}: serious or critical axe violations`).toEqual([]);
    await saveScreenshot(page, view);
  }

  it('sign-in', async () => {
    const page = await fixture.rig.newPage();
    await gotoConsole(page, fixture.rig.daemon.consoleUrl);
    await page.getByLabel('API key', { exact: true }).waitFor();
    await check(page, 'sign-in');
  });

  it('runtimes', async () => {
    const page = await fixture.rig.openConsole('/runtimes');
    await page.getByRole('link', { name: fixture.showcase.root, exact: true }).waitFor();
    await page.getByRole('link', { name: 'docs-writer', exact: true }).waitFor();
    await check(page, 'runtimes');
  });

  it('lineage with a selected checkpoint', async () => {
    const page = await fixture.rig.openConsole(`/runtimes/${fixture.showcase.root}`);
    await expect.poll(() => checkpointTree(page).getAttribute('data-checkpoint-count')).toBe('3');
    await selectCheckpoint(page, fixture.showcase.routes);
    await check(page, 'lineage');
  });

  it('the confirm dialog', async () => {
    const page = await fixture.rig.openConsole(`/runtimes/${fixture.showcase.root}`);
    const details = await selectCheckpoint(page, fixture.showcase.scaffold);
    await details.getByRole('button', { name: 'Delete snapshot', exact: true }).click();
    await page.getByRole('dialog').waitFor();
    await check(page, 'confirm');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel', exact: true }).click();
    expect((await fixture.rig.daemon.client.getCheckpoint(fixture.showcase.scaffold)).has_provider_snapshot).toBe(true);
  });

  it('diff with a file shown', async () => {
    const page = await fixture.rig.openConsole(`/diff?from=${fixture.showcase.scaffold}&to=${fixture.showcase.routes}`);
    const table = page.getByRole('table', { name: 'Changed files' });
    await table.getByText(fixture.showcase.changedPath, { exact: true }).click();
    await page.getByRole('region', { name: `Diff of ${fixture.showcase.changedPath}` }).locator('[class*="hljs-"]').first().waitFor();
    await check(page, 'diff');
  });

  it('files with a file’s contents', async () => {
    const page = await fixture.rig.openConsole(`/checkpoints/${fixture.showcase.routes}/files?path=${encodeURIComponent(fixture.showcase.nestedDirectory)}`);
    await page.getByRole('button', { name: fixture.showcase.nestedFile, exact: true }).click();
    await page.getByRole('region', { name: `Contents of ${fixture.showcase.nestedPath}` }).getByText('export function route').waitFor();
    await check(page, 'files');
  });

  it('events', async () => {
    const page = await fixture.rig.openConsole('/events');
    await page.getByRole('log', { name: 'Live events' }).getByText('checkpoint.created').first().waitFor();
    await check(page, 'events');
  });

  it('fleet', async () => {
    const page = await fixture.rig.openConsole('/fleet');
    await page.getByRole('table', { name: 'Nodes' }).getByRole('row').nth(1).waitFor();
    await check(page, 'fleet');
  });
});
