import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { runProviderConformance } from '@runtimectl/testkit';
import { removeTree } from '@runtimectl/testkit/server-process';
import { createFsProvider } from '../src/index';

// The whole provider conformance suite again, with the layers snapshot store (overlay mounts:
// root on Linux only). Limits as conformance.test.ts.
const limits = { memoryBytes: 128 * 1024 * 1024, pids: 128, cpuCores: 1 };
const asRoot = process.getuid?.() === 0;

if (asRoot) {
  runProviderConformance({
    name: 'fs (layers)',
    capabilities: { posixShell: true, specialFiles: true, isolatedCommands: true },
    limits: { memoryBytes: limits.memoryBytes, pids: limits.pids, reportsReason: true },
    createProvider: async () => {
      const root = await mkdtemp(join(tmpdir(), 'runtimectl-fs-layers-conformance-'));
      return {
        provider: createFsProvider({ root: join(root, 'workspaces'), snapshots: join(root, 'snapshots'), limits, snapshotStore: 'layers' }),
        // Detaches whatever a failed test left mounted, so the removal never walks into a live workspace.
        cleanup: async () => removeTree(root),
      };
    },
  });
} else {
  describe.skip('fs (layers) conformance: overlay mounts need root', () => it('runs as root', () => {}));
}
