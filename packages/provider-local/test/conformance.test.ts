import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProviderConformance } from '@runtimectl/testkit';
import { createLocalProvider } from '../src/index';

// Each test gets its own root directory, removed afterwards. The local provider runs commands
// with a real /bin/sh, so the suite's process-tree and output-draining tests run too; its file API opens FIFOs itself,
// so the special-file tests run as well.
// Small limits, so the suite's fork bomb and allocation reach them quickly; the provider's answer
// names the limit that stopped a command (reportsReason).
const limits = { memoryBytes: 128 * 1024 * 1024, pids: 128, cpuCores: 1 };
runProviderConformance({
  name: 'local',
  capabilities: { posixShell: true, specialFiles: true, isolatedCommands: true },
  limits: { memoryBytes: limits.memoryBytes, pids: limits.pids, reportsReason: true },
  createProvider: async () => {
    const root = await mkdtemp(join(tmpdir(), 'runtimectl-local-conformance-'));
    return { provider: createLocalProvider({ root, limits }), cleanup: () => rm(root, { recursive: true, force: true }) };
  },
});
