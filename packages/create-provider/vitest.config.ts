import { ciReporters } from '@runtimectl/ci-guard/vitest';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'create-provider',
    // Only this package's tests: template/test/ is the generated project's, run there.
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // vitest's output, the JSON report CI sums, and the watchdog that bounds this package's run.
    reporters: ciReporters(),
  },
});
