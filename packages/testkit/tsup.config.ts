import { defineConfig } from 'tsup';

export default defineConfig({
  // `memory-provider` is a separate entry without vitest, so programs (the daemon's
  // [providers.memory]) can load the reference provider without a test runner installed.
  entry: { index: 'src/index.ts', 'memory-provider': 'src/memory-provider/index.ts' },
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  external: ['vitest', '@runtimectl/core'],
});
