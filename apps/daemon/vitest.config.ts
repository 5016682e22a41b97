import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'daemon',
    testTimeout: 30_000,
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
  },
});
