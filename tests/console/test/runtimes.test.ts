import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium } from '../support/chromium-path';
import { startConsoleRig, type ConsoleRig } from '../support/console-rig';
import { runtimeRow, runtimeStatusCell, shownRuntimeIds, waitForStatus } from '../support/runtime-row';

/** What the live tests allow between the API's answer and the row showing it: the event stream's job. */
const LIVE_MS = 1_000;

describe.skipIf(!hasChromium)('the runtimes view', () => {
  let rig: ConsoleRig;
  const seeded = ['crawler-alpha', 'crawler-beta', 'indexer-gamma', 'indexer-delta'];

  beforeAll(async () => {
    rig = await startConsoleRig();
    const { client } = rig.daemon;
    await client.open({ runtime_id: 'crawler-alpha', conversation_id: 'conv-north', sender_id: 'agent-1' });
    await client.open({ runtime_id: 'crawler-beta', conversation_id: 'conv-south', sender_id: 'agent-1', provider: 'local' });
    await client.open({ runtime_id: 'indexer-gamma', conversation_id: 'conv-north', sender_id: 'agent-2' });
    await client.open({ runtime_id: 'indexer-delta', conversation_id: 'conv-south', sender_id: 'agent-2' });
    await client.pause({ runtime_id: 'indexer-delta' });
  });
  afterAll(async () => {
    await rig?.close();
  });

  it('lists every runtime with its status, provider, conversation and node, ids linking to their lineage', async () => {
    const page = await rig.openConsole('/runtimes');
    await page.getByRole('heading', { name: 'Runtimes', exact: true }).waitFor();
    await expect.poll(() => shownRuntimeIds(page, seeded)).toEqual(seeded);
    const headers = (await page.getByRole('table', { name: 'Runtimes', exact: true }).getByRole('columnheader').allInnerTexts()).map((text) => text.trim());
    for (const column of ['Runtime', 'Status', 'Provider', 'Conversation', 'Node', 'Updated']) expect(headers.join('|')).toContain(column);

    expect((await runtimeStatusCell(page, 'crawler-beta').innerText()).trim()).toBe('idle');
    const beta = await runtimeRow(page, 'crawler-beta').innerText();
    expect(beta).toContain('local');
    expect(beta).toContain('conv-south');
    expect((await runtimeStatusCell(page, 'indexer-delta').innerText()).trim()).toBe('paused');
    expect(await runtimeRow(page, 'crawler-alpha').innerText()).toContain('fs');

    await runtimeRow(page, 'crawler-alpha').getByRole('link', { name: 'crawler-alpha', exact: true }).click();
    await page.getByRole('heading', { name: 'Lineage of crawler-alpha' }).waitFor();
    expect(page.url()).toContain('#/runtimes/crawler-alpha');
  });

  it('narrows the table by search, status, provider, node and conversation', async () => {
    const page = await rig.openConsole('/runtimes');
    const shown = () => shownRuntimeIds(page, seeded);
    await expect.poll(shown).toHaveLength(4);

    await page.getByRole('searchbox', { name: 'Search runtimes' }).fill('indexer');
    await expect.poll(shown).toEqual(['indexer-gamma', 'indexer-delta']);
    await page.getByRole('searchbox', { name: 'Search runtimes' }).fill('beta');
    await expect.poll(shown).toEqual(['crawler-beta']);
    await page.getByRole('searchbox', { name: 'Search runtimes' }).fill('');
    await expect.poll(shown).toHaveLength(4);

    await page.getByLabel('Status', { exact: true }).selectOption('paused');
    await expect.poll(shown).toEqual(['indexer-delta']);
    await page.getByLabel('Status', { exact: true }).selectOption('idle');
    await expect.poll(shown).toEqual(['crawler-alpha', 'crawler-beta', 'indexer-gamma']);
    await page.getByLabel('Status', { exact: true }).selectOption({ index: 0 });
    await expect.poll(shown).toHaveLength(4);

    await page.getByLabel('Provider', { exact: true }).selectOption('local');
    await expect.poll(shown).toEqual(['crawler-beta']);
    await page.getByLabel('Provider', { exact: true }).selectOption('fs');
    await expect.poll(shown).toEqual(['crawler-alpha', 'indexer-gamma', 'indexer-delta']);
    await page.getByLabel('Provider', { exact: true }).selectOption({ index: 0 });
    await expect.poll(shown).toHaveLength(4);

    // One node holds every runtime here: choosing it keeps them all (and the option is there to choose).
    expect(rig.daemon.nodeId).not.toBe('');
    await page.getByLabel('Node', { exact: true }).selectOption(rig.daemon.nodeId);
    await expect.poll(shown).toHaveLength(4);
    await page.getByLabel('Node', { exact: true }).selectOption({ index: 0 });

    await page.getByRole('textbox', { name: 'Conversation', exact: true }).fill('conv-north');
    await expect.poll(shown).toEqual(['crawler-alpha', 'indexer-gamma']);
    // Filters combine.
    await page.getByRole('searchbox', { name: 'Search runtimes' }).fill('gamma');
    await expect.poll(shown).toEqual(['indexer-gamma']);
  });

  it('shows a runtime paused through the API as paused within 1 s, and a runtime opened through the API', async () => {
    const { client } = rig.daemon;
    await client.open({ runtime_id: 'live-pause', conversation_id: 'conv-live', sender_id: 'agent-3' });
    const page = await rig.openConsole('/runtimes');
    await waitForStatus(page, 'live-pause', 'idle');

    await client.pause({ runtime_id: 'live-pause' });
    const paused = Date.now();
    await waitForStatus(page, 'live-pause', 'paused', LIVE_MS);
    const pausedAfterMs = Date.now() - paused;

    await client.open({ runtime_id: 'live-newcomer', conversation_id: 'conv-live', sender_id: 'agent-3' });
    const opened = Date.now();
    await runtimeRow(page, 'live-newcomer').waitFor({ timeout: LIVE_MS });
    const openedAfterMs = Date.now() - opened;
    console.log(`console runtimes: paused row after ${pausedAfterMs} ms, opened row after ${openedAfterMs} ms`);

    await client.resume({ runtime_id: 'live-pause' });
    await waitForStatus(page, 'live-pause', 'idle', LIVE_MS);
  });
});
