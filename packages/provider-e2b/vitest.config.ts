import { ciReporters } from '@runtimectl/ci-guard/vitest';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'provider-e2b',
    // vitest's output, the JSON report CI sums, and the watchdog that bounds this package's run.
    reporters: ciReporters(),
    // Every test talks to a real emulator over HTTP and runs real commands in it.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
