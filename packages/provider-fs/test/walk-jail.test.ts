import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, readdir, readFile, realpath, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { SnapshotStore } from '../src/snapshot-store';
import { useTemporaryDirectories } from './fs-fixture';

const HOST_NAME = 'host-only-name';
const HOST_CONTENT = 'HOST-SECRET-CONTENT';

describe('snapshot walk jail', () => {
  const temporary = useTemporaryDirectories();

  it('a directory swapped for a symlink to the host mid-walk never brings a host name, link target or content into a snapshot', async () => {
    const dir = await realpath(await temporary('race'));
    const host = join(dir, 'host');
    await mkdir(host);
    await writeFile(join(host, HOST_NAME), HOST_CONTENT);
    await writeFile(join(host, 'x'), HOST_CONTENT);
    const workspace = join(dir, 'ws');
    await mkdir(join(workspace, 'd'), { recursive: true });
    for (let i = 0; i < 50; i++) await writeFile(join(workspace, 'd', `f${i}`), `inside ${i}`);
    await writeFile(join(workspace, 'd', 'x'), 'inside');
    // Swaps d between the real directory and a link to the host directory by renames, as fast as it can.
    await symlink(host, join(workspace, 'lnk'));
    const swap = "const { renameSync: r } = require('node:fs'); for (;;) { r('d', 'real'); r('lnk', 'd'); r('d', 'lnk'); r('real', 'd'); }";
    const swapper = spawn(process.execPath, ['-e', swap], { cwd: workspace, stdio: 'ignore' });
    const store = new SnapshotStore(join(dir, 'snapshots'), { racyWindowNs: 0n });
    try {
      for (let round = 0; round < 100; round++) await store.checkpoint(workspace, 'ws', { labels: {} }).catch(() => undefined);
    } finally {
      swapper.kill('SIGKILL');
      await once(swapper, 'exit');
    }
    const manifests = await store.manifests();
    expect(manifests.length).toBeGreaterThan(0);
    for (const manifest of manifests) expect(JSON.stringify(manifest)).not.toContain(HOST_NAME);
    const blobs = join(dir, 'snapshots', 'blobs');
    for (const shard of await readdir(blobs)) {
      if (shard.startsWith('.')) continue;
      for (const name of await readdir(join(blobs, shard))) {
        const stored = await readFile(join(blobs, shard, name));
        expect((name.endsWith('.gz') ? gunzipSync(stored) : stored).toString()).not.toContain(HOST_CONTENT);
      }
    }
  });
});
