import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const RESULTS = fileURLToPath(new URL('../results/', import.meta.url));

/**
 * Writes what a test file measured to `results/<name>.json` (git-ignored), with the time of the
 * run; `pnpm run report` turns those files into the tables of README.md.
 */
export function writeFigures(name: string, figures: unknown): void {
  mkdirSync(RESULTS, { recursive: true });
  const document = { name, recordedAt: new Date().toISOString(), node: process.version, figures };
  writeFileSync(`${RESULTS}${name}.json`, `${JSON.stringify(document, null, 2)}\n`);
}
