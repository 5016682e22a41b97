#!/usr/bin/env node
// Sums the vitest JSON reports (test-results.json in each package) into one plain line, printed
// last: "N passed, N failed, N skipped". Before it, one line per package: its counts and how long
// its tests took (from the report's start to when it was written), and what the package watchdog
// said if it ended the run (@runtimectl/ci-guard). A package with no report (its run was killed
// or never started) counts as one failed test, and so does a test file that failed outside any of
// its tests (an error at load or in a hook: vitest counts no failed test for it), so the summary
// never reads green, nor 0 failed, on a red run. RUNTIMECTL_TEST_SUMMARY_ROOT: another root (tests).
// Exits 1 when any test failed or a report is missing.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = process.env.RUNTIMECTL_TEST_SUMMARY_ROOT ?? new URL('..', import.meta.url).pathname;
const totals = { passed: 0, failed: 0, skipped: 0 };
const rows = [];

function duration(ms) {
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
}

/** Every workspace package's directory, as `group/name` (bench is a package itself). */
function packageLabels() {
  const labels = ['bench'];
  for (const group of ['packages', 'apps', 'tests', 'clients']) {
    const dir = join(root, group);
    if (existsSync(dir)) labels.push(...readdirSync(dir).map((name) => `${group}/${name}`));
  }
  return labels;
}

for (const label of packageLabels()) {
  const pkg = join(root, label);
  if (!existsSync(join(pkg, 'vitest.config.ts'))) continue;
  const report = join(pkg, 'test-results.json');
  if (!existsSync(report)) {
    totals.failed += 1;
    rows.push({ label, text: 'no test report (its run was killed or never started): counted as 1 failed', ms: 0 });
    continue;
  }
  const json = JSON.parse(readFileSync(report, 'utf8'));
  const skipped = json.numPendingTests + json.numTodoTests;
  // A file that failed with no failed test in it: it failed at load or in a hook.
  const failedOutside = (json.testResults ?? []).filter((file) => file.status === 'failed' && !(file.assertionResults ?? []).some((test) => test.status === 'failed'));
  const failed = json.numFailedTests + failedOutside.length;
  totals.passed += json.numPassedTests;
  totals.failed += failed;
  totals.skipped += skipped;
  const ms = statSync(report).mtimeMs - json.startTime;
  const outside = failedOutside.length > 0 ? ` (${failedOutside.length} test file${failedOutside.length > 1 ? 's' : ''} failed outside its tests: ${failedOutside.map((file) => file.name.split('/').pop()).join(', ')})` : '';
  const stopped = json.watchdog ? ` · STOPPED by the watchdog after ${duration(json.watchdog.boundMs)}: ${json.watchdog.stillRunning.map((file) => file.file).join(', ') || 'no file running'}` : '';
  rows.push({ label, text: `${json.numPassedTests} passed, ${failed} failed${outside}, ${skipped} skipped in ${duration(ms)}${stopped}`, ms });
}

const width = Math.max(...rows.map((row) => row.label.length));
for (const row of rows.sort((a, b) => b.ms - a.ms)) console.log(`ci: ${row.label.padEnd(width)}  ${row.text}`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 ? 1 : 0);
