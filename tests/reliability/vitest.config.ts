import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'reliability',
    include: ['test/**/*.test.ts'],
    // Issue 20's acceptance proofs (fleet conformance, partition, chaos) are not met yet: they
    // run with `pnpm run test:fleet` (RUNTIMECTL_FLEET_PROOFS=1) until the fleet passes them, and
    // then join the default run. See README.md, "A fleet".
    exclude: process.env.RUNTIMECTL_FLEET_PROOFS ? [] : ['test/fleet-*.test.ts'],
    // Each file starts its own daemon (and emulator) and spends most of its time waiting on
    // deadlines: two files at a time halve the wall time without starving the machine.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
  },
});
