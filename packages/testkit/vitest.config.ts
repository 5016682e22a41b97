import { ciReporters } from '@runtimectl/ci-guard/vitest';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'testkit',
    // Mutant providers and the fixtures that run conformance areas against them: run only by
    // the tests that expect those areas to fail (test/mutants/run-fixture.ts).
    exclude: [...configDefaults.exclude, 'test/mutants/**'],
    // vitest's output, the JSON report CI sums, and the watchdog that bounds this package's run.
    reporters: ciReporters(),
  },
});
