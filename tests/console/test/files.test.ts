import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium } from '../support/chromium-path';
import { startConsoleRig, type ConsoleRig } from '../support/console-rig';

const HOSTILE_NAME = '<img src=x onerror="window.__pwned=1">.ts';
const HOSTILE_CONTENT = '</code></pre><script>window.__pwned=2</script><img src=x onerror="window.__pwned=3">\n';

describe.skipIf(!hasChromium)('the files view', () => {
  let rig: ConsoleRig;
  let checkpointId = '';

  beforeAll(async () => {
    rig = await startConsoleRig();
    const { client } = rig.daemon;
    await client.open({ runtime_id: 'files-src', conversation_id: 'conv-files', sender_id: 'agent' });
    await client.writeFileBytes('files-src', 'README.md', '# top\n');
    await client.writeFileBytes('files-src', 'src/lib/config.py', 'TIMEOUT = 30  # as checkpointed\n');
    await client.writeFileBytes('files-src', 'src/main.py', 'print("main")\n');
    // What an untrusted command may leave behind: a name and contents that are HTML and script.
    await client.writeFileBytes('files-src', HOSTILE_NAME, HOSTILE_CONTENT);
    checkpointId = (await client.checkpoint({ runtime_id: 'files-src', name: 'browsable' })).checkpoint_id;
    // The runtime moves on: the checkpoint's file must not.
    await client.writeFileBytes('files-src', 'src/lib/config.py', 'TIMEOUT = 99  # changed live\n');
  });
  afterAll(async () => {
    await rig?.close();
  });

  it('browses a checkpoint into a subdirectory and shows a file as checkpointed, not as the runtime has it now', async () => {
    const live = Buffer.from(await rig.daemon.client.readFileBytes('files-src', 'src/lib/config.py')).toString();
    expect(live).toContain('changed live');

    const page = await rig.openConsole(`/checkpoints/${checkpointId}/files`);
    await page.getByRole('heading', { name: /^Files of checkpoint/ }).waitFor();
    const breadcrumb = page.getByRole('navigation', { name: 'Path', exact: true });
    await breadcrumb.waitFor();
    // Directories are links (they navigate), files are buttons (they open below the listing).
    await page.getByRole('button', { name: 'README.md', exact: true }).waitFor();

    await page.getByRole('link', { name: 'src/', exact: true }).click();
    await page.getByRole('button', { name: 'main.py', exact: true }).waitFor();
    expect(await breadcrumb.innerText()).toContain('src');
    expect(decodeURIComponent(page.url())).toContain('path=src');
    await page.getByRole('link', { name: 'lib/', exact: true }).click();
    await page.getByRole('button', { name: 'config.py', exact: true }).click();

    const contents = page.getByRole('region', { name: 'Contents of src/lib/config.py', exact: true });
    await contents.getByText('TIMEOUT = 30').waitFor();
    expect(await contents.innerText()).not.toContain('changed live');
    expect(decodeURIComponent(page.url())).toContain('path=src/lib');

    // The breadcrumb leads back up.
    await breadcrumb.getByRole('link', { name: 'src', exact: true }).click();
    await page.getByRole('button', { name: 'main.py', exact: true }).waitFor();
    await breadcrumb.getByRole('link', { name: 'workspace', exact: true }).click();
    await page.getByRole('button', { name: 'README.md', exact: true }).waitFor();
  });

  it("shows a file whose name and contents are HTML and script as text: nothing of a sandbox's runs in the console", async () => {
    const page = await rig.openConsole(`/checkpoints/${checkpointId}/files`);
    await page.getByRole('button', { name: HOSTILE_NAME, exact: true }).click();
    const contents = page.getByRole('region', { name: `Contents of ${HOSTILE_NAME}`, exact: true });
    await contents.waitFor();
    await expect.poll(() => contents.innerText()).toContain('<script>window.__pwned=2</script>');
    expect(await page.locator('main img').count()).toBe(0);
    expect(await page.locator('main script').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  });
});
