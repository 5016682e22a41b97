import { ciReporters } from '@runtimectl/ci-guard/vitest';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server-http',
    // Behaviour, not speed, is under test: a 7 MiB body through validation takes seconds when CI
    // shares the two cores with other packages' tests (it timed out at vitest's 5 s default).
    testTimeout: 30_000,
    // vitest's output, the JSON report CI sums, and the watchdog that bounds this package's run.
    reporters: ciReporters(),
  },
});
