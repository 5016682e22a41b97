import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'store-sqlite',
    // The crash and concurrency tests spawn child processes: seconds on a loaded CI machine.
    testTimeout: 30_000,
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
  },
});
