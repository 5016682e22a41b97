import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';

const SUMMARY = fileURLToPath(new URL('../../../scripts/test-summary.mjs', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'ci-summary-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A repository root with one package whose vitest report is `report`. */
function rootWith(report: object): string {
  const root = mkdtempSync(join(scratch, 'root-'));
  const pkg = join(root, 'packages', 'one');
  mkdirSync(pkg, { recursive: true });
  writeFileSync(join(pkg, 'vitest.config.ts'), 'export default {};\n');
  writeFileSync(join(pkg, 'test-results.json'), JSON.stringify({ startTime: Date.now() - 1000, numPendingTests: 0, numTodoTests: 0, ...report }));
  return root;
}

it('counts a test file that failed outside any test (an error at load, in a hook) as failed: the summary never reads 0 failed on a red run', () => {
  const root = rootWith({
    numPassedTests: 3,
    numFailedTests: 0,
    testResults: [
      { name: 'loads.test.ts', status: 'passed', assertionResults: [{ status: 'passed' }, { status: 'passed' }, { status: 'passed' }] },
      { name: 'fails-at-load.test.ts', status: 'failed', assertionResults: [] },
    ],
  });
  const run = spawnSync(process.execPath, [SUMMARY], { env: { ...process.env, RUNTIMECTL_TEST_SUMMARY_ROOT: root }, encoding: 'utf8' });
  const lines = run.stdout.trim().split('\n');
  expect(lines.at(-1)).toBe('3 passed, 1 failed, 0 skipped');
  expect(lines[0]).toContain('packages/one');
  expect(lines[0]).toContain('3 passed, 1 failed (1 test file failed outside its tests: fails-at-load.test.ts)');
  expect(run.status).toBe(1);
});

it('reads green when every file and test passed', () => {
  const root = rootWith({ numPassedTests: 1, numFailedTests: 0, testResults: [{ name: 'a.test.ts', status: 'passed', assertionResults: [{ status: 'passed' }] }] });
  const run = spawnSync(process.execPath, [SUMMARY], { env: { ...process.env, RUNTIMECTL_TEST_SUMMARY_ROOT: root }, encoding: 'utf8' });
  expect(run.stdout.trim().split('\n').at(-1)).toBe('1 passed, 0 failed, 0 skipped');
  expect(run.status).toBe(0);
});
