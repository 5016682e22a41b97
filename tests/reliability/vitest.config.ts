import { ciReporters } from '@runtimectl/ci-guard/vitest';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'reliability',
    include: ['test/**/*.test.ts'],
    // Each file starts its own daemon (and emulator) and spends most of its time waiting on
    // deadlines: two files at a time halve the wall time without starving the machine.
    maxWorkers: 2,
    // One PostgreSQL for the run, started (under a deadline) before any file: the fleet rigs share it.
    globalSetup: ['./support/postgres-global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // vitest's output, the JSON report CI sums, and the watchdog that bounds this package's run.
    reporters: ciReporters(),
  },
});
