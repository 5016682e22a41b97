import { ciReporters } from '@runtimectl/ci-guard/vitest';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'provider-local',
    // Exec tests run real shells and floods of output; a loaded two-core CI machine needs room.
    testTimeout: 30_000,
    // vitest's output, the JSON report CI sums, and the watchdog that bounds this package's run.
    reporters: ciReporters(),
  },
});
