import { defineConfig } from 'vitest/config';

// The mutants' own runs (see run-fixture.ts): only `*.mutants.ts`, never part of the package's run.
export default defineConfig({
  test: { name: 'testkit-mutants', include: ['*.mutants.ts'] },
});
