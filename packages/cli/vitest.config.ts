import { ciReporters } from '@runtimectl/ci-guard/vitest';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'cli',
    // The end-to-end tests spawn runtimed and the runtimectl bin (a Node start each): generous
    // limits, because CI runs every package's tests at once on two cores.
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // vitest's output, the JSON report CI sums, and the watchdog that bounds this package's run.
    reporters: ciReporters(),
  },
});
