import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'namespace-sandbox',
    testTimeout: 30_000,
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
  },
});
