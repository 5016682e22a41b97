import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'testkit',
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
  },
});
