#!/usr/bin/env node
// Sums the vitest JSON reports (test-results.json in each package) into one plain line:
// "N passed, N failed, N skipped". Exits 1 when any test failed or a package's report is missing.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
for (const group of ['packages', 'apps', 'tests', 'bench']) {
  const dir = join(root, group);
  if (!existsSync(dir)) continue;
  for (const name of readdirSync(dir)) {
    const pkg = join(dir, name);
    if (!existsSync(join(pkg, 'vitest.config.ts'))) continue;
    const report = join(pkg, 'test-results.json');
    if (!existsSync(report)) {
      missing.push(`${group}/${name}`);
      continue;
    }
    const json = JSON.parse(readFileSync(report, 'utf8'));
    passed += json.numPassedTests;
    failed += json.numFailedTests;
    skipped += json.numPendingTests + json.numTodoTests;
  }
}
if (missing.length > 0) console.log(`no test report from: ${missing.join(', ')}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || missing.length > 0 ? 1 : 0);
