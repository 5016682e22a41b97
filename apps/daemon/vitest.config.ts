import { ciReporters } from '@runtimectl/ci-guard/vitest';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'daemon',
    // Tests spawn real daemons, emulators and shells; a loaded two-core machine needs room.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // One real PostgreSQL for the run (or RUNTIMECTL_TEST_DATABASE_URL's) for the --store postgres tests.
    globalSetup: ['./test/postgres-global-setup.ts'],
    // vitest's output, the JSON report CI sums, and the watchdog that bounds this package's run.
    reporters: ciReporters(),
  },
});
