import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'cli',
    // The end-to-end tests spawn runtimed and the runtimectl bin (a Node start each): generous
    // limits, because CI runs every package's tests at once on two cores.
    testTimeout: 120_000,
    hookTimeout: 60_000,
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
  },
});
