import { fileURLToPath } from 'node:url';
import { ciReporters } from '@runtimectl/ci-guard/vitest';
import { defineConfig } from 'vitest/config';

// testkit depends on core, so core's tests reach testkit (and core) through their sources.
const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    alias: {
      '@runtimectl/core': source('./src/index.ts'),
      '@runtimectl/testkit': source('../testkit/src/index.ts'),
    },
  },
  test: {
    name: 'core',
    // vitest's output, the JSON report CI sums, and the watchdog that bounds this package's run.
    reporters: ciReporters(),
  },
});
