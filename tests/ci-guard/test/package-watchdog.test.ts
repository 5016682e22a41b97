import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';

const FIXTURE = fileURLToPath(new URL('./fixtures/hung-package', import.meta.url));
const VITEST = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const scratch = mkdtempSync(join(tmpdir(), 'ci-guard-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Whether `pid` is a living process (a killed one whose parent died too may linger as a zombie until init reaps it). */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

function runFixture(boundMs: number): Promise<{ code: number | null; output: string; elapsedMs: number }> {
  const began = performance.now();
  const child = spawn(process.execPath, [VITEST, 'run', '--root', FIXTURE], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, RUNTIMECTL_TEST_PACKAGE_BOUND_MS: String(boundMs), HUNG_FIXTURE_PID_FILE: join(scratch, 'server.pid'), NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // If the watchdog failed, this test must not hang in its turn.
  const backstop = setTimeout(() => child.kill('SIGKILL'), 90_000);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(backstop);
      resolve({ code, output, elapsedMs: performance.now() - began });
    });
  });
}

it('ends a package run past its bound, naming the file still loading, killing what it started and counting it failed', async () => {
  const run = await runFixture(6_000);
  expect(run.code, run.output).toBe(1);
  expect(run.elapsedMs).toBeLessThan(60_000);
  expect(run.output).toContain('[ci-guard] hung-fixture ran past its bound of 6 s and was stopped.');
  expect(run.output).toMatch(/still running: hung\.check\.ts for \d+ s, loading it \(imports or a module-level await\)/);
  expect(run.output).not.toContain('still running: passing.check.ts');
  const report = JSON.parse(readFileSync(join(FIXTURE, 'test-results.json'), 'utf8')) as Record<string, unknown>;
  expect({ passed: report.numPassedTests, failed: report.numFailedTests }).toEqual({ passed: 1, failed: 1 });
  const server = Number(readFileSync(join(scratch, 'server.pid'), 'utf8'));
  await expect.poll(() => isRunning(server), { message: 'the server the hung file started', timeout: 5_000 }).toBe(false);
}, 120_000);
