import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium } from '../support/chromium-path';
import { startConsoleRig, type ConsoleRig } from '../support/console-rig';

describe.skipIf(!hasChromium)('the fleet view', () => {
  let rig: ConsoleRig;
  beforeAll(async () => {
    rig = await startConsoleRig();
  });
  afterAll(async () => {
    await rig?.close();
  });

  it('shows this node alive with its version, and the daemon healthy and ready', async () => {
    const { client } = rig.daemon;
    const { version } = await client.health();
    const { nodes } = await client.nodes();
    expect(nodes).toHaveLength(1);
    const node = nodes[0]!;

    const page = await rig.openConsole('/fleet');
    await page.getByRole('heading', { name: 'Fleet', exact: true }).waitFor();
    const table = page.getByRole('table', { name: 'Nodes' });
    const row = table.getByRole('row').filter({ hasText: node.node_id });
    await row.waitFor();
    const text = await row.innerText();
    expect(text).toContain(version);
    expect(text).toMatch(/\balive\b/i);
    expect(text).not.toMatch(/\b(dead|not alive|stale)\b/i);

    const main = await page.locator('main').innerText();
    expect(main).toMatch(/\bok\b/i);
    expect(main).toMatch(/\bready\b/i);
    expect(main).toContain(version);
  });
});
