import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTrees, type ProviderBackend } from '@runtimectl/core';
import { createLocalProvider } from '@runtimectl/provider-local';
import { createFsProvider } from '../src/index';
import { useTemporaryDirectories } from './fs-fixture';

const newBackendId = () => `bkd_${randomBytes(16).toString('hex')}`;
const utf8 = (text: string) => new Uint8Array(Buffer.from(text));

async function writeTree(backend: ProviderBackend): Promise<void> {
  await backend.writeBytes('src/a.ts', utf8('a'));
  await backend.writeBytes('src/deep/b.ts', utf8('b'));
  await backend.writeBytes('notes.md', utf8('n'));
}

describe('fs provider manifests', () => {
  const temporary = useTemporaryDirectories();
  const releases: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const release of releases.splice(0)) await release().catch(() => undefined);
  });

  async function open(provider: ReturnType<typeof createFsProvider> | ReturnType<typeof createLocalProvider>) {
    const backendId = newBackendId();
    const backend = await provider.create({ backendId, runtimeId: 'rt', options: {}, labels: {} });
    releases.push(() => provider.release({ backendId, resource: backend.resource }));
    return backend;
  }

  it("an fs backend's manifest is the local provider's for the same tree (the same root hash)", async () => {
    const dir = await temporary('provider');
    const fs = createFsProvider({ root: join(dir, 'fs'), snapshots: join(dir, 'snapshots'), isolation: 'none' });
    const local = createLocalProvider({ root: join(dir, 'local'), isolation: 'none' });
    const [a, b] = [await open(fs), await open(local)];
    await writeTree(a);
    await writeTree(b);
    await fs.checkpoint(a, { labels: {} });
    expect(buildTrees(await a.manifest!()).root).toBe(buildTrees(await b.manifest!()).root);
  });

  it("after a checkpoint, an unchanged file's hash comes from the stat index (no rehash), a changed one is read", async () => {
    const dir = await temporary('provider');
    const fs = createFsProvider({ root: join(dir, 'fs'), snapshots: join(dir, 'snapshots'), isolation: 'none', racyWindowNs: 0n });
    const backend = await open(fs);
    await writeTree(backend);
    await fs.checkpoint(backend, { labels: {} });
    // The index vouches for a file by its stat: a hash only the index can know proves it was not read.
    const indexPath = join(dir, 'snapshots', 'index', `${String(backend.resource.workspace)}.json`);
    const index = JSON.parse(await readFile(indexPath, 'utf8')) as { files: Record<string, { hash: string }> };
    index.files['notes.md']!.hash = 'e'.repeat(64);
    await writeFile(indexPath, JSON.stringify(index));
    await backend.writeBytes('src/a.ts', utf8('changed'));
    const entries = await backend.manifest!();
    expect(entries.find(({ path }) => path === 'notes.md')?.hash).toBe('e'.repeat(64));
    expect(entries.find(({ path }) => path === 'src/a.ts')?.hash).not.toBe(index.files['src/a.ts']!.hash);
  });
});
