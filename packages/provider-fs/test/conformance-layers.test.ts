import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { runProviderConformance } from '@runtimectl/testkit';
import { createFsProvider } from '../src/index';
import { unmount } from '../src/layers/overlay-mount';

// The whole provider conformance suite again, with the layers snapshot store (overlay mounts:
// root on Linux only). Limits as conformance.test.ts.
const limits = { memoryBytes: 128 * 1024 * 1024, pids: 128, cpuCores: 1 };
const asRoot = process.getuid?.() === 0;

/** Detaches whatever a failed test left mounted under `root`, so removing it never walks into a live workspace. */
async function unmountUnder(root: string): Promise<void> {
  const table = await readFile('/proc/self/mountinfo', 'utf8');
  const points = table.split('\n').map((line) => line.split(' ')[4] ?? '').filter((point) => point.startsWith(`${root}/`));
  for (const point of points.reverse()) await unmount(point, { lazy: true }).catch(() => undefined);
}

if (asRoot) {
  runProviderConformance({
    name: 'fs (layers)',
    capabilities: { posixShell: true, specialFiles: true, isolatedCommands: true },
    limits: { memoryBytes: limits.memoryBytes, pids: limits.pids, reportsReason: true },
    createProvider: async () => {
      const root = await mkdtemp(join(tmpdir(), 'runtimectl-fs-layers-conformance-'));
      return {
        provider: createFsProvider({ root: join(root, 'workspaces'), snapshots: join(root, 'snapshots'), limits, snapshotStore: 'layers' }),
        cleanup: async () => {
          await unmountUnder(root);
          await rm(root, { recursive: true, force: true });
        },
      };
    },
  });
} else {
  describe.skip('fs (layers) conformance: overlay mounts need root', () => it('runs as root', () => {}));
}
