import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// testkit depends on core, so core's tests reach testkit (and core) through their sources.
const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    alias: {
      '@runtimectl/core': source('./src/index.ts'),
      '@runtimectl/testkit': source('../testkit/src/index.ts'),
    },
  },
  test: {
    name: 'core',
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
  },
});
