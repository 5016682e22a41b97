import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server-http',
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
  },
});
