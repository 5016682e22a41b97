import { runProviderConformance } from '@runtimectl/testkit';
import { emulatorProvider, useEmulator } from './support/emulator-fixture';

// The whole provider contract against a fresh emulator (the real e2b SDK speaking E2B's wire
// protocol to it). Commands really run under bash in the sandbox, so the suite's process-tree,
// SIGTERM-ignoring and output-draining tests run too.
const emulator = await useEmulator();

runProviderConformance({
  name: 'e2b (emulator)',
  capabilities: { posixShell: true, isolatedCommands: true },
  timeouts: { testMs: 60_000, hookMs: 60_000 },
  createProvider: () => {
    const provider = emulatorProvider(emulator);
    return { provider, cleanup: () => provider.dispose() };
  },
});
