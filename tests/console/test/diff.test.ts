import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium } from '../support/chromium-path';
import { startConsoleRig, type ConsoleRig } from '../support/console-rig';
import { sizeText } from '../support/size-text';

const APP_V1 = 'export function greet(name: string): string {\n  return `hello ${name}`;\n}\n';
const APP_V2 = 'export function greet(name: string, punctuation = "!"): string {\n  return `hello, ${name}${punctuation}`;\n}\n\nexport const VERSION = 2;\n';
const BINARY_V1 = Uint8Array.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 2, 3]);
const BINARY_V2 = Uint8Array.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 9, 9, 9, 9, 0]);
/** Past the 1 MiB the diff view shows inline. */
const LARGE = 'a line of a large log file, repeated\n'.repeat(40_000);

function changedFiles(page: Page) {
  return page.getByRole('table', { name: 'Changed files' });
}
function changedRow(page: Page, path: string) {
  return changedFiles(page).getByRole('row').filter({ has: page.getByText(path, { exact: true }) });
}

describe.skipIf(!hasChromium)('the diff view', () => {
  let rig: ConsoleRig;
  let before = '';
  let after = '';

  beforeAll(async () => {
    rig = await startConsoleRig();
    const { client } = rig.daemon;
    const write = (path: string, content: string | Uint8Array) => client.writeFileBytes('diff-src', path, content);
    await client.open({ runtime_id: 'diff-src', conversation_id: 'conv-diff', sender_id: 'agent' });
    await write('removed.txt', 'this file goes away\n');
    await write('src/app.ts', APP_V1);
    await write('data.bin', BINARY_V1);
    await write('unchanged.txt', 'same on both sides\n');
    before = (await client.checkpoint({ runtime_id: 'diff-src', name: 'before' })).checkpoint_id;
    const removed = await client.exec({ runtime_id: 'diff-src', command: 'rm removed.txt' });
    expect(removed.exit_code).toBe(0);
    await write('src/app.ts', APP_V2);
    await write('added.md', '# Added\n\nA new file.\n');
    await write('data.bin', BINARY_V2);
    await write('big.log', LARGE);
    after = (await client.checkpoint({ runtime_id: 'diff-src', name: 'after' })).checkpoint_id;
    await write('live-only.txt', 'written after the last checkpoint\n');
  });
  afterAll(async () => {
    await rig?.close();
  });

  it('lists added, removed, modified, binary and large files with their sizes', async () => {
    expect(LARGE.length).toBeGreaterThan(1024 * 1024);
    const page = await rig.openConsole('/diff');
    await page.getByRole('heading', { name: 'Diff', exact: true }).waitFor();
    await page.getByRole('textbox', { name: 'From', exact: true }).fill(before);
    await page.getByRole('textbox', { name: 'To', exact: true }).fill(after);
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    await changedFiles(page).waitFor();

    const expected = (await rig.daemon.client.diff({ from_checkpoint_id: before, to_checkpoint_id: after })).entries;
    expect(expected.map((e) => `${e.path}:${e.change}`).sort()).toEqual(['added.md:added', 'big.log:added', 'data.bin:modified', 'removed.txt:removed', 'src/app.ts:modified']);
    for (const entry of expected) {
      const row = changedRow(page, entry.path);
      await row.waitFor();
      const text = await row.innerText();
      expect(text).toContain(entry.change);
      const sizes = await sizeText(row);
      for (const size of [entry.old_size, entry.new_size]) if (size !== null) expect(sizes, `${entry.path} size ${size}`).toMatch(sizeShown(size));
    }
    expect(await changedRow(page, 'unchanged.txt').count()).toBe(0);
  });

  it('shows a modified source file side by side with highlighted syntax, and says when a file is binary or too large', async () => {
    const page = await rig.openConsole(`/diff?from=${before}&to=${after}`);
    await changedFiles(page).waitFor();

    await changedRow(page, 'src/app.ts').getByText('src/app.ts', { exact: true }).click();
    const region = page.getByRole('region', { name: 'Diff of src/app.ts' });
    await region.waitFor();
    // Side by side: an Old and a New column.
    await region.getByRole('columnheader', { name: 'Old', exact: true }).waitFor();
    await region.getByRole('columnheader', { name: 'New', exact: true }).waitFor();
    const text = await region.innerText();
    expect(text).toContain('hello ${name}');
    expect(text).toContain('punctuation');
    expect(text).toContain('VERSION');
    expect(await region.locator('span[class*="hljs-"]').count()).toBeGreaterThan(0);
    expect(await region.locator('.hljs-keyword').filter({ hasText: 'export' }).count()).toBeGreaterThan(0);

    await changedRow(page, 'data.bin').getByText('data.bin', { exact: true }).click();
    await page.getByRole('region', { name: 'Diff of data.bin' }).getByText('Binary file').waitFor();

    await changedRow(page, 'big.log').getByText('big.log', { exact: true }).click();
    await page.getByRole('region', { name: 'Diff of big.log' }).getByText('Too large to show inline').waitFor();
  });

  it('compares a checkpoint with the live runtime', async () => {
    const page = await rig.openConsole('/diff');
    await page.getByRole('textbox', { name: 'From', exact: true }).fill(after);
    await page.getByRole('checkbox', { name: 'Live runtime', exact: true }).check();
    await page.getByRole('textbox', { name: 'Runtime', exact: true }).fill('diff-src');
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    await changedRow(page, 'live-only.txt').waitFor();
    expect(await changedRow(page, 'live-only.txt').innerText()).toContain('added');
    expect(await changedRow(page, 'src/app.ts').count()).toBe(0);
    expect(decodeURIComponent(page.url())).toContain('to=runtime:diff-src');

    await changedRow(page, 'live-only.txt').getByText('live-only.txt', { exact: true }).click();
    const region = page.getByRole('region', { name: 'Diff of live-only.txt' });
    await region.getByText('written after the last checkpoint').waitFor();
  });
});

/** A byte count as the row may show it: exact ("1480000", in text or title), or read as B/KiB/MiB to one decimal. */
function sizeShown(bytes: number): RegExp {
  const forms = [String(bytes)];
  if (bytes < 1024) forms.push(`${bytes} B`);
  else {
    const kib = bytes / 1024;
    const mib = kib / 1024;
    const value = mib >= 1 ? mib : kib;
    const unit = mib >= 1 ? 'MiB' : 'KiB';
    forms.push(`${value < 10 ? value.toFixed(1) : Math.round(value)} ${unit}`);
  }
  return new RegExp(`(^|\\D)(${forms.map((f) => f.replace('.', '\\.')).join('|')})(\\D|$)`);
}
