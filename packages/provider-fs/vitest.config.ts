import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'provider-fs',
    // Exec tests (the local provider's, composed) and snapshot walks run real processes and files.
    testTimeout: 30_000,
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
  },
});
