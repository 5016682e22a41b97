import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'provider-local',
    // Exec tests run real shells and floods of output; a loaded two-core CI machine needs room.
    testTimeout: 30_000,
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
  },
});
