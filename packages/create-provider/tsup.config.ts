import { defineConfig } from 'tsup';
import { rangesOf } from './src/dependency-ranges';

export default defineConfig({
  entry: { main: 'src/main.ts', index: 'src/index.ts' },
  format: ['esm'],
  dts: { entry: 'src/index.ts' },
  sourcemap: true,
  clean: true,
  target: 'node20',
  // dist/main.js is the `create-provider` bin: executable as it is.
  banner: { js: '#!/usr/bin/env node' },
  // The template's versions, read here where the devDependencies are (a published manifest has none).
  define: { __TEMPLATE_RANGES__: JSON.stringify(JSON.stringify(rangesOf('.'))) },
});
