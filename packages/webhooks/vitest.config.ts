import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'webhooks',
    // One real PostgreSQL for the run (the fleet test's nodes share it), each test its own schema.
    globalSetup: ['./test/postgres-global-setup.ts'],
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
  },
});
