import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { vitest: 'src/index.ts' },
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  external: ['vitest'],
});
