import { ciReporters } from '@runtimectl/ci-guard/vitest';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'packaging',
    include: ['test/**/*.test.mjs'],
    // Each test runs real tools in child processes (git, changeset version, pnpm list, a CommonJS
    // node per package) on a machine that may be busy.
    testTimeout: 120_000,
    // vitest's output, the JSON report CI sums, and the watchdog that bounds this package's run.
    reporters: ciReporters(),
  },
});
