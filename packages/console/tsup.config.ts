import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  dts: true,
  sourcemap: true,
  // Not `clean`: vite has already written the browser bundle to dist/app.
  clean: false,
  target: 'node20',
  // The package entry is Node code; tsconfig.json is the browser app's.
  tsconfig: 'tsconfig.node.json',
});
