import { ciReporters } from '@runtimectl/ci-guard/vitest';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'mcp',
    // Real daemons and real MCP clients over stdio: seconds per test on a busy machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // vitest's output, the JSON report CI sums, and the watchdog that bounds this package's run.
    reporters: ciReporters(),
  },
});
