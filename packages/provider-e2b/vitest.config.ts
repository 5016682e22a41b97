import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'provider-e2b',
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
    // Every test talks to a real emulator over HTTP and runs real commands in it.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
