import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium } from '../support/chromium-path';
import { checkpointNode, selectCheckpoint } from '../support/checkpoint-node';
import { startConsoleRig, type ConsoleRig } from '../support/console-rig';

/** The polite success message the action's panel shows (role status) that names `text`. */
function statusSaying(page: Page, text: string | RegExp) {
  return page.getByRole('status').filter({ hasText: text });
}

describe.skipIf(!hasChromium)('actions in the lineage view', () => {
  let rig: ConsoleRig;

  beforeAll(async () => {
    rig = await startConsoleRig();
  });
  afterAll(async () => {
    await rig?.close();
  });

  async function openWithFile(runtimeId: string): Promise<void> {
    await rig.daemon.client.open({ runtime_id: runtimeId, conversation_id: 'conv-actions', sender_id: 'agent' });
    await rig.daemon.client.writeFileBytes(runtimeId, 'notes.txt', `notes of ${runtimeId}\n`);
  }

  it('checkpoints with a name, pins and unpins, checks out and forks', async () => {
    const { client } = rig.daemon;
    await openWithFile('act-main');
    const page = await rig.openConsole('/runtimes/act-main');
    await page.getByRole('heading', { name: 'Lineage of act-main' }).waitFor();

    await page.getByRole('textbox', { name: 'Checkpoint name', exact: true }).fill('from-the-console');
    await page.getByRole('button', { name: 'Checkpoint', exact: true }).click();
    await statusSaying(page, /rtcp_/).first().waitFor();
    const made = (await client.listCheckpoints('act-main')).checkpoints.filter((c) => c.name === 'from-the-console');
    expect(made).toHaveLength(1);
    const checkpointId = made[0]!.checkpoint_id;
    await checkpointNode(page, checkpointId).waitFor();

    const details = await selectCheckpoint(page, checkpointId);
    await details.getByRole('button', { name: 'Pin', exact: true }).click();
    await details.getByRole('button', { name: 'Unpin', exact: true }).waitFor();
    expect((await client.getCheckpoint(checkpointId)).pinned).toBe(true);
    await details.getByRole('button', { name: 'Unpin', exact: true }).click();
    await details.getByRole('button', { name: 'Pin', exact: true }).waitFor();
    expect((await client.getCheckpoint(checkpointId)).pinned).toBe(false);

    await details.getByRole('button', { name: 'Check out', exact: true }).click();
    const checkedOut = statusSaying(page, /act-main:checkout:/).first();
    await checkedOut.waitFor();
    const children = (await client.list()).runtimes.filter((r) => r.forked_from_checkpoint_id === checkpointId);
    expect(children).toHaveLength(1);
    const child = children[0]!.runtime_id;
    expect(children[0]!.parent_runtime_id).toBe('act-main');
    // The message links to the new runtime's lineage.
    await checkedOut.getByRole('link', { name: child, exact: true }).click();
    await expect.poll(() => decodeURIComponent(page.url())).toContain(`#/runtimes/${child}`);
    await page.getByRole('heading', { name: /^Lineage of / }).waitFor();

    await page.goBack();
    await page.getByRole('heading', { name: 'Lineage of act-main' }).waitFor();
    const before = (await client.list()).runtimes.filter((r) => r.parent_runtime_id === 'act-main').length;
    await page.getByRole('button', { name: 'Fork', exact: true }).click();
    await statusSaying(page, /Forked as/).first().waitFor();
    const after = (await client.list()).runtimes.filter((r) => r.parent_runtime_id === 'act-main');
    expect(after).toHaveLength(before + 1);
    expect((await client.get('act-main')).runtime.status).toBe('idle');
  });

  it('deletes a snapshot only once the dialog is confirmed', async () => {
    const { client } = rig.daemon;
    await openWithFile('act-delete');
    const doomed = (await client.checkpoint({ runtime_id: 'act-delete', name: 'doomed' })).checkpoint_id;
    await client.writeFileBytes('act-delete', 'later.txt', 'after the doomed checkpoint');
    await client.checkpoint({ runtime_id: 'act-delete', name: 'kept' });

    const page = await rig.openConsole('/runtimes/act-delete');
    const details = await selectCheckpoint(page, doomed);
    await details.getByRole('button', { name: 'Delete snapshot', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await client.getCheckpoint(doomed)).has_provider_snapshot).toBe(true);

    await details.getByRole('button', { name: 'Delete snapshot', exact: true }).click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Delete snapshot', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(async () => (await client.getCheckpoint(doomed)).has_provider_snapshot).toBe(false);
    await page.getByRole('status').first().waitFor();
  });

  it('pauses, resumes and, once the dialog is confirmed, closes the runtime', async () => {
    const { client } = rig.daemon;
    await openWithFile('act-life');
    const page = await rig.openConsole('/runtimes/act-life');
    await page.getByRole('heading', { name: 'Lineage of act-life' }).waitFor();
    const statusOf = async () => (await client.get('act-life')).runtime.status;

    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await expect.poll(statusOf).toBe('paused');
    await page.getByRole('button', { name: 'Resume', exact: true }).click();
    await expect.poll(statusOf).toBe('idle');

    await page.getByRole('button', { name: 'Close', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await statusOf()).toBe('idle');
    await page.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.getByRole('button', { name: 'Close runtime', exact: true }).click();
    await expect.poll(statusOf).toBe('closed');
  });

  it('shows the API’s error code and text when an action is refused', async () => {
    const { client } = rig.daemon;
    await openWithFile('act-refused');
    const page = await rig.openConsole('/runtimes/act-refused');
    await page.getByRole('heading', { name: 'Lineage of act-refused', exact: true }).waitFor();

    // Resume of a runtime that is not paused: 409 runtime_not_paused, with the API's text.
    await page.getByRole('button', { name: 'Resume', exact: true }).click();
    const notPaused = page.getByRole('alert').filter({ hasText: 'runtime_not_paused' });
    await notPaused.waitFor();
    expect(await notPaused.innerText()).toContain('runtime act-refused is not paused');
    expect((await client.get('act-refused')).runtime.status).toBe('idle');

    // Pause of a runtime closed elsewhere (through the API): 409 runtime_closed, with the API's text.
    await client.close({ runtime_id: 'act-refused' });
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    const closed = page.getByRole('alert').filter({ hasText: 'runtime_closed' });
    await closed.waitFor();
    expect(await closed.innerText()).toContain('runtime act-refused is closed');
    expect(await page.getByRole('alert').filter({ hasText: 'runtime_not_paused' }).count()).toBe(0);
  });
});
