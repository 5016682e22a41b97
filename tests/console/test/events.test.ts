import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium } from '../support/chromium-path';
import { startConsoleRig, type ConsoleRig } from '../support/console-rig';

/** Between the API's answer and the event in the feed. */
// The feed shows a checkpoint's short id; its title holds the whole id.
const LIVE_MS = 1_000;

describe.skipIf(!hasChromium)('the events view', () => {
  let rig: ConsoleRig;

  beforeAll(async () => {
    rig = await startConsoleRig();
    await rig.daemon.client.open({ runtime_id: 'events-a', conversation_id: 'conv-events', sender_id: 'agent' });
    await rig.daemon.client.open({ runtime_id: 'events-b', conversation_id: 'conv-events', sender_id: 'agent' });
  });
  afterAll(async () => {
    await rig?.close();
  });

  it('shows a checkpoint made through the API within 1 s, newest on top', async () => {
    const page = await rig.openConsole('/events');
    await page.getByRole('heading', { name: 'Events', exact: true }).waitFor();
    const feed = page.getByRole('log', { name: 'Live events' });
    await feed.getByText('events-b').first().waitFor();

    const { checkpoint_id } = await rig.daemon.client.checkpoint({ runtime_id: 'events-a', name: 'seen-live' });
    const made = Date.now();
    await feed.getByTitle(checkpoint_id, { exact: true }).first().waitFor({ timeout: LIVE_MS });
    console.log(`console events: checkpoint.created in the feed after ${Date.now() - made} ms`);
    const first = (await feed.innerText()).trim();
    expect(first.indexOf('checkpoint.created')).toBeGreaterThanOrEqual(0);
    expect(first.indexOf('checkpoint.created')).toBeLessThan(first.indexOf('runtime.opened'));
  });

  it('filters by type and by runtime, and pauses the feed', async () => {
    const { client } = rig.daemon;
    const page = await rig.openConsole('/events');
    const feed = page.getByRole('log', { name: 'Live events' });
    await feed.getByText('runtime.opened').first().waitFor();

    await page.getByRole('textbox', { name: 'Event types', exact: true }).fill('checkpoint.created');
    await page.getByRole('textbox', { name: 'Event types', exact: true }).press('Enter');
    await expect.poll(async () => feed.getByText('runtime.opened').count()).toBe(0);
    const { checkpoint_id: typed } = await client.checkpoint({ runtime_id: 'events-b' });
    await client.pause({ runtime_id: 'events-b' });
    await feed.getByTitle(typed, { exact: true }).first().waitFor({ timeout: LIVE_MS });
    await expect.poll(async () => feed.getByText('runtime.paused').count()).toBe(0);

    await page.getByRole('textbox', { name: 'Runtime', exact: true }).fill('events-a');
    await page.getByRole('textbox', { name: 'Runtime', exact: true }).press('Enter');
    await expect.poll(async () => feed.getByTitle(typed, { exact: true }).count()).toBe(0);
    const { checkpoint_id: ofA } = await client.checkpoint({ runtime_id: 'events-a' });
    await feed.getByTitle(ofA, { exact: true }).first().waitFor({ timeout: LIVE_MS });

    await page.getByRole('button', { name: 'Pause feed', exact: true }).click();
    await page.getByRole('button', { name: 'Resume feed', exact: true }).waitFor();
    const { checkpoint_id: held } = await client.checkpoint({ runtime_id: 'events-a' });
    await new Promise((resolve) => setTimeout(resolve, LIVE_MS));
    expect(await feed.getByTitle(held, { exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Resume feed', exact: true }).click();
    await feed.getByTitle(held, { exact: true }).first().waitFor({ timeout: LIVE_MS * 3 });
  });
});
