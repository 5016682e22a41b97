import { fileURLToPath } from 'node:url';

/** The file runtimed answers for `/console/` and for every console path that is not an asset. */
export const CONSOLE_INDEX_FILE = 'index.html';

/**
 * The absolute path of the prebuilt console (index.html and its hashed assets) that runtimed
 * serves under `/console/`. The directory is part of the published package: nothing is built at run time.
 */
export function consoleAssetsDirectory(): string {
  return fileURLToPath(new URL('./app', import.meta.url));
}
