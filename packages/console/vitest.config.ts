import { ciReporters } from '@runtimectl/ci-guard/vitest';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'console',
    // The pure logic of the app (beside its code) and the package entry; the browser suite lives in tests/console.
    include: ['app/src/**/*.test.ts', 'src/**/*.test.ts'],
    // vitest's output, the JSON report CI sums, and the watchdog that bounds this package's run.
    reporters: ciReporters(),
  },
});
