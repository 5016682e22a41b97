import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createFsProvider } from '../src/index';
import { SnapshotStore } from '../src/snapshot-store';
import { useTemporaryDirectories } from './fs-fixture';

const child = join(import.meta.dirname, 'checkpoint-child.mjs');

describe('crash safety', () => {
  const temporary = useTemporaryDirectories();

  it('a SIGKILL during checkpoints leaves only whole snapshots: every visible manifest checks out', async () => {
    await stat(join(import.meta.dirname, '../dist/index.js')); // The child runs the built package (turbo builds before test).
    const dir = await temporary('crash');
    const root = join(dir, 'workspaces');
    const snapshots = join(dir, 'snapshots');
    const provider = createFsProvider({ root, snapshots, isolation: 'none' });
    const backendId = `bkd_${randomBytes(16).toString('hex')}`;
    const backend = await provider.create({ backendId, runtimeId: 'rt', options: {}, labels: {} });
    // Enough content that a checkpoint takes a while: 400 files of 16 KiB random bytes, some nested.
    const made = await backend.exec({
      command: 'for d in a b c d; do mkdir -p $d; for i in $(seq 1 100); do head -c 16384 /dev/urandom > $d/f$i; done; done',
      maxOutputBytes: 4096,
    });
    expect(made.exitCode).toBe(0);
    const checked = new Set<string>();
    for (let kill = 0; kill < 4; kill++) {
      const running = spawn(process.execPath, [child, root, snapshots, backendId], { stdio: ['ignore', 'pipe', 'inherit'] });
      // Kill after the kill-th snapshot id (0: during the very first checkpoint, others mid-stream).
      let seen = 0;
      if (kill > 0) {
        await new Promise<void>((resolve) => {
          running.stdout.on('data', (chunk: Buffer) => {
            seen += chunk.toString().split('\n').filter(Boolean).length;
            if (seen >= kill) resolve();
          });
        });
      } else {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      running.kill('SIGKILL');
      await once(running, 'exit');
      const store = new SnapshotStore(snapshots);
      for (const manifest of await store.manifests()) {
        if (checked.has(manifest.snapshotId)) continue;
        checked.add(manifest.snapshotId);
        const target = join(dir, `check-${manifest.snapshotId}`);
        await mkdir(target);
        await store.checkout(manifest, target);
      }
    }
    expect(checked.size).toBeGreaterThanOrEqual(3);
    await provider.release({ backendId, resource: backend.resource });
  });
});
