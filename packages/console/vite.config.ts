import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The console's browser bundle. Served by runtimed under /console/ with a strict CSP, so: relative
 * asset URLs (`base: './'`), nothing inlined (no data: assets, no inline module-preload polyfill),
 * and JSX compiled by Vite's own oxc transform for Preact's automatic runtime (no preset plugin).
 */
export default defineConfig({
  root: fileURLToPath(new URL('./app', import.meta.url)),
  base: './',
  oxc: {
    jsx: { runtime: 'automatic', importSource: 'preact' },
  },
  build: {
    outDir: fileURLToPath(new URL('./dist/app', import.meta.url)),
    // Only dist/app: tsup writes dist/index.js beside it.
    emptyOutDir: true,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    target: 'es2022',
    chunkSizeWarningLimit: 600,
  },
});
