import { ciReporters } from '@runtimectl/ci-guard/vitest';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'store-sqlite',
    // The crash and concurrency tests spawn child processes: seconds on a loaded CI machine.
    testTimeout: 30_000,
    // vitest's output, the JSON report CI sums, and the watchdog that bounds this package's run.
    reporters: ciReporters(),
  },
});
