import { ciReporters } from '@runtimectl/ci-guard/vitest';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'python-client',
    include: ['test/**/*.test.ts'],
    // The Python suite runs while the test file is collected (a real daemon, real commands).
    testTimeout: 60_000,
    // vitest's output, the JSON report CI sums, and the watchdog that bounds this package's run.
    reporters: ciReporters(),
  },
});
