import { ciReporters } from '@runtimectl/ci-guard/vitest';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'console',
    include: ['test/**/*.test.ts'],
    // Each file starts its own daemon and Chromium: two files at a time keep a 2-core machine busy
    // without making the browser's timings (render ms, 1 s live updates) about the machine's load.
    maxWorkers: 2,
    // Says once, for the whole run, when there is no Chromium (every file then skips).
    globalSetup: ['./support/skip-line-global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 90_000,
    // vitest's output, the JSON report CI sums, and the watchdog that bounds this package's run.
    reporters: ciReporters(),
  },
});
