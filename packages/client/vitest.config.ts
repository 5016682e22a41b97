import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'client',
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
  },
});
