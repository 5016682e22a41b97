import { defineConfig } from 'vitest/config';
import { ciReporters } from './src/index';

export default defineConfig({
  test: {
    name: 'ci-guard',
    // Only this package's own tests: the fixtures are packages of their own, run by the tests.
    include: ['test/*.test.ts'],
    testTimeout: 120_000,
    reporters: ciReporters(),
  },
});
