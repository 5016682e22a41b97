import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'webhooks',
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
  },
});
