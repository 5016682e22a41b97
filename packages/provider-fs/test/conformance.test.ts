import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProviderConformance } from '@runtimectl/testkit';
import { createFsProvider } from '../src/index';

// Each test gets its own root and snapshot store, removed afterwards. Commands and files are the
// composed local provider's (real /bin/sh, FIFOs, isolation), so every capability case runs, and
// the snapshot methods make the checkpoint / checkout / ownership cases run too.
// Small limits, so the suite's fork bomb and allocation reach them quickly (see local's).
const limits = { memoryBytes: 128 * 1024 * 1024, pids: 128, cpuCores: 1 };
runProviderConformance({
  name: 'fs',
  capabilities: { posixShell: true, specialFiles: true, isolatedCommands: true },
  limits: { memoryBytes: limits.memoryBytes, pids: limits.pids, reportsReason: true },
  createProvider: async () => {
    const root = await mkdtemp(join(tmpdir(), 'runtimectl-fs-conformance-'));
    return {
      provider: createFsProvider({ root: join(root, 'workspaces'), snapshots: join(root, 'snapshots'), limits }),
      cleanup: () => rm(root, { recursive: true, force: true }),
    };
  },
});
