import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { main: 'src/main.ts', index: 'src/index.ts' },
  format: ['esm'],
  dts: { entry: 'src/index.ts' },
  sourcemap: true,
  clean: true,
  target: 'node20',
  // dist/main.js is the `create-provider` bin: executable as it is.
  banner: { js: '#!/usr/bin/env node' },
});
