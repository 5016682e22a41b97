import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'e2b-emulator',
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
    // Every test talks to a real HTTP server and spawns real processes.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
