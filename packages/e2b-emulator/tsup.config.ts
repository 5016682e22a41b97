import { defineConfig } from 'tsup';

// Two builds run side by side, so neither cleans: `pnpm run build` empties dist/ first.
export default defineConfig([
  {
    entry: ['src/index.ts'],
    format: ['esm'],
    dts: true,
    sourcemap: true,
    clean: false,
    target: 'node20',
  },
  {
    // The bin is a separate entry so only it carries the shebang banner.
    entry: { bin: 'src/bin.ts' },
    format: ['esm'],
    dts: false,
    sourcemap: true,
    clean: false,
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
  },
]);
