import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'store-sqlite',
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
  },
});
