import { runProviderConformance } from '@runtimectl/testkit';
import { emulatorProvider, useEmulator } from './support/emulator-fixture';

// The whole provider contract against a fresh emulator (the real e2b SDK speaking E2B's wire
// protocol to it). Commands really run under bash in the sandbox, so the suite's process-tree,
// SIGTERM-ignoring and output-draining tests run too. The emulator's sandboxes have E2B's network
// (the internet, never the host's loopback) and small limits, as a small E2B VM would have; E2B
// says only that a command was killed, not which limit killed it. Files are read and written by
// envd inside the sandbox, so a symbolic link a command plants leads only within it (filesInSandbox).
const limits = { memoryBytes: 128 * 1024 * 1024, pids: 128, cpuCores: 1 };
const emulator = await useEmulator({ features: { limits } });

runProviderConformance({
  name: 'e2b (emulator)',
  capabilities: { posixShell: true, isolatedCommands: true, filesInSandbox: true },
  limits: { memoryBytes: limits.memoryBytes, pids: limits.pids },
  timeouts: { testMs: 60_000, hookMs: 60_000 },
  createProvider: () => {
    const provider = emulatorProvider(emulator);
    return { provider, cleanup: () => provider.dispose() };
  },
});
