import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProviderContext } from '@runtimectl/provider';
import { runProviderConformance } from '@runtimectl/testkit';
import provider from '../src/index.js';

/** What runtimed hands `create`, for a fresh state directory: the logger and metrics hooks do nothing here. */
function contextFor(stateDir: string): ProviderContext {
  const quiet = () => {};
  return {
    providerId: provider.id,
    stateDir,
    nodeId: 'conformance',
    leaseMs: 30_000,
    logger: { debug: quiet, info: quiet, warn: quiet, error: quiet },
    telemetry: { workspaceQuotaRefused: quiet, watchWorkspaceUsage: quiet },
  };
}

// Every test gets a provider made the way runtimed makes it (default settings, through the
// package's own schema) over a fresh state directory, removed afterwards. Commands run with a real
// /bin/sh (posixShell) and the file API opens files itself, refusing FIFOs at once (specialFiles).
// Commands are not isolated from this process, so the isolation tests skip, saying so.
runProviderConformance({
  name: provider.id,
  capabilities: { posixShell: true, specialFiles: true },
  createProvider: async () => {
    const stateDir = await mkdtemp(join(tmpdir(), `${provider.id}-conformance-`));
    return {
      provider: await provider.create(provider.settings.parse({}), contextFor(stateDir)),
      cleanup: () => rm(stateDir, { recursive: true, force: true }),
    };
  },
});
