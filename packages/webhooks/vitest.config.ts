import { ciReporters } from '@runtimectl/ci-guard/vitest';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'webhooks',
    // One real PostgreSQL for the run (the fleet test's nodes share it), each test its own schema.
    globalSetup: ['./test/postgres-global-setup.ts'],
    // vitest's output, the JSON report CI sums, and the watchdog that bounds this package's run.
    reporters: ciReporters(),
  },
});
