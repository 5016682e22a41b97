import { ciReporters } from '@runtimectl/ci-guard/vitest';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'provider-fs',
    // Exec tests (the local provider's, composed) and snapshot walks run real processes and files.
    testTimeout: 30_000,
    // vitest's output, the JSON report CI sums, and the watchdog that bounds this package's run.
    reporters: ciReporters(),
  },
});
