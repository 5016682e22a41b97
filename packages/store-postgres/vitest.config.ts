import { ciReporters } from '@runtimectl/ci-guard/vitest';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'store-postgres',
    // One real PostgreSQL for the run (or RUNTIMECTL_TEST_DATABASE_URL's); each test its own schema.
    globalSetup: ['./test/postgres-global-setup.ts'],
    // vitest's output, the JSON report CI sums, and the watchdog that bounds this package's run.
    reporters: ciReporters(),
  },
});
