import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'provider-local',
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
  },
});
