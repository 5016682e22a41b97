import { ciReporters } from '@runtimectl/ci-guard/vitest';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'e2b-emulator',
    // vitest's output, the JSON report CI sums, and the watchdog that bounds this package's run.
    reporters: ciReporters(),
    // Every test talks to a real HTTP server and spawns real processes.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
