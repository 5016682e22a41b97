#!/usr/bin/env node
// usage: node scripts/run-sdk-suite.mjs [--suite DIR] [--out FILE] [--expect FILE] [vitest args…]
//
// Runs E2B's own JS SDK test suite (pinned, unmodified: ../shared/e2b-sdk-suite beside the repository, see its
// SOURCE.md) against this package's built emulator and prints what passed and what did not.
// The suite is copied to a fresh temp dir (never into the repo); `e2b` and `vitest` are
// installed with npm once into a cache dir under the OS temp dir and linked into each copy, so
// the repo's lockfile and node_modules are never touched. Extra arguments go to vitest (a file
// filter such as `tests/sandbox/fork.test.ts`, `-t name`). Build first (`pnpm run build`).
// With `--expect FILE` (sdk-suite-expected.json: `total` and the `failing` tests, each with why),
// the run passes when no other test failed and at least `total` tests ran, and an expected
// failure that passed is named (take it off the list). CI runs it so.
// Exit status: 0 when every test passed (or, with --expect, as expected), 1 otherwise, 2 when
// the run itself could not happen.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The pinned suite beside the repository (`../shared/e2b-sdk-suite` from its root). */
const DEFAULT_SUITE_DIR = fileURLToPath(new URL('../../../../shared/e2b-sdk-suite', import.meta.url));
const E2B_VERSION = '2.51.0';
const VITEST_VERSION = '4.1.12';
const INSTALL_TIMEOUT_MS = 5 * 60_000;
const SUITE_TIMEOUT_MS = 30 * 60_000;
const READY_TIMEOUT_MS = 30_000;

const packageDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const { suiteDir, outFile, expectFile, vitestArgs } = parseArguments(process.argv.slice(2));
const expected = expectFile ? JSON.parse(readFileSync(expectFile, 'utf8')) : undefined;

const emulatorBin = path.join(packageDir, 'dist', 'bin.js');
if (!existsSync(emulatorBin)) fail(`${emulatorBin} is missing: build the package first (pnpm run build)`);
if (!existsSync(path.join(suiteDir, 'SOURCE.md'))) fail(`${suiteDir} is not the pinned E2B SDK suite (no SOURCE.md)`);

const modulesDir = installDependencies();
const workDir = mkdtempSync(path.join(os.tmpdir(), 'e2b-sdk-suite-'));
const logFile = outFile.replace(/\.json$/, '') + '.log';
let emulator;
try {
  cpSync(suiteDir, workDir, { recursive: true });
  symlinkSync(modulesDir, path.join(workDir, 'node_modules'), 'dir');
  emulator = await startEmulator();
  const reportFile = path.join(workDir, 'vitest-report.json');
  const status = await runSuite(workDir, emulator.ready.apiUrl, reportFile, logFile, vitestArgs);
  if (!existsSync(reportFile)) throw new Error(`vitest wrote no report (exit ${status}); its output: ${logFile}`);
  const summary = summarize(workDir, JSON.parse(readFileSync(reportFile, 'utf8')));
  writeFileSync(outFile, `${JSON.stringify(summary, null, 2)}\n`);
  printSummary(summary, outFile, logFile);
  process.exitCode = expected ? judge(summary, expected) : summary.failed === 0 ? 0 : 1;
} catch (error) {
  console.error(`run-sdk-suite: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 2;
} finally {
  if (emulator) await stopEmulator(emulator.child);
  rmSync(workDir, { recursive: true, force: true });
}

function parseArguments(args) {
  const parsed = {
    suiteDir: process.env.E2B_SDK_SUITE_DIR ?? DEFAULT_SUITE_DIR,
    outFile: path.join(os.tmpdir(), 'e2b-sdk-suite-results.json'),
    expectFile: undefined,
    vitestArgs: [],
  };
  for (let index = 0; index < args.length; index += 1) {
    if (args[index] === '--suite') parsed.suiteDir = path.resolve(args[++index] ?? '');
    else if (args[index] === '--out') parsed.outFile = path.resolve(args[++index] ?? '');
    else if (args[index] === '--expect') parsed.expectFile = path.resolve(args[++index] ?? '');
    else parsed.vitestArgs.push(args[index]);
  }
  return parsed;
}

/** Installs the pinned SDK and vitest once per version pair; returns their node_modules. */
function installDependencies() {
  const cacheDir = path.join(os.tmpdir(), 'e2b-sdk-suite-cache', `e2b-${E2B_VERSION}-vitest-${VITEST_VERSION}`);
  const marker = path.join(cacheDir, 'installed');
  if (existsSync(marker)) return path.join(cacheDir, 'node_modules');
  rmSync(cacheDir, { recursive: true, force: true });
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(path.join(cacheDir, 'package.json'), '{"name":"e2b-sdk-suite-deps","private":true}\n');
  console.log(`installing e2b@${E2B_VERSION} and vitest@${VITEST_VERSION} into ${cacheDir} …`);
  const result = spawnSync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--no-package-lock', `e2b@${E2B_VERSION}`, `vitest@${VITEST_VERSION}`],
    { cwd: cacheDir, stdio: 'inherit', timeout: INSTALL_TIMEOUT_MS },
  );
  if (result.status !== 0) fail(`npm install failed (${result.error?.message ?? `exit ${result.status}`})`);
  writeFileSync(marker, new Date().toISOString());
  return path.join(cacheDir, 'node_modules');
}

/** Starts `dist/bin.js --port 0` and waits for its one JSON ready line. */
function startEmulator() {
  const child = spawn(process.execPath, [emulatorBin, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the emulator printed no ready line')), READY_TIMEOUT_MS);
    child.once('exit', (code) => reject(new Error(`the emulator exited early (${code})`)));
    createInterface({ input: child.stdout }).once('line', (line) => {
      clearTimeout(timer);
      resolve({ child, ready: JSON.parse(line) });
    });
  });
}

async function stopEmulator(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Runs vitest in the copy with the SDK pointed at the emulator; resolves to its exit status. */
function runSuite(cwd, baseUrl, reportFile, logFile, extraArgs) {
  const vitest = path.join(cwd, 'node_modules', 'vitest', 'vitest.mjs');
  const args = [vitest, 'run', '--reporter=json', `--outputFile=${reportFile}`, ...extraArgs];
  const env = {
    ...process.env,
    // Any well-formed key: the emulator accepts every key, the SDK checks the shape.
    E2B_API_KEY: `e2b_${'0123456789abcdef'.repeat(3).slice(0, 40)}`,
    E2B_API_URL: baseUrl,
    E2B_SANDBOX_URL: baseUrl,
  };
  // Debug mode would send envd calls to localhost:49983; a domain or token would leave the machine.
  delete env.E2B_DEBUG;
  delete env.E2B_DOMAIN;
  delete env.E2B_ACCESS_TOKEN;
  const log = openSync(logFile, 'w');
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', log, log], detached: true });
  closeSync(log);
  const timer = setTimeout(() => process.kill(-child.pid, 'SIGKILL'), SUITE_TIMEOUT_MS);
  return new Promise((resolve) => {
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

/** The report reduced to counts and one line per test (failures carry their first error line). */
function summarize(workDir, report) {
  const tests = report.testResults.flatMap((file) =>
    file.assertionResults.map((test) => ({
      file: path.relative(workDir, file.name),
      name: test.fullName,
      status: test.status === 'pending' || test.status === 'todo' ? 'skipped' : test.status,
      ...(test.status === 'failed' ? { error: firstLine(test.failureMessages?.[0]) } : {}),
    })),
  );
  const count = (status) => tests.filter((test) => test.status === status).length;
  return { total: tests.length, passed: count('passed'), failed: count('failed'), skipped: count('skipped'), tests };
}

function firstLine(message = '') {
  return message.split('\n').find((line) => line.trim().length > 0)?.trim() ?? '';
}

function printSummary(summary, file, logFile) {
  for (const test of summary.tests.filter((entry) => entry.status === 'failed')) {
    console.log(`✗ ${test.file} › ${test.name}\n    ${test.error}`);
  }
  console.log(`\nE2B SDK suite against the emulator: ${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped of ${summary.total}`);
  console.log(`results: ${file} (vitest's output: ${logFile})`);
}

/** 0 when the only failures are the expected ones and the whole suite ran; names what is not so. */
function judge(summary, { total, failing }) {
  const key = (test) => `${test.file} › ${test.name}`;
  const known = new Set(failing.map(key));
  const unexpected = summary.tests.filter((test) => test.status === 'failed' && !known.has(key(test)));
  const nowPassing = summary.tests.filter((test) => test.status === 'passed' && known.has(key(test)));
  for (const test of unexpected) console.log(`unexpected failure: ${key(test)}`);
  for (const test of nowPassing) console.log(`expected to fail, did not (take it off the list if it keeps passing): ${key(test)}`);
  if (summary.total < total) console.log(`only ${summary.total} of the suite's ${total} tests ran`);
  const ok = unexpected.length === 0 && summary.total >= total;
  console.log(`against the expected: ${ok ? 'as expected' : 'NOT as expected'} (${failing.length} known failures, ${unexpected.length} unexpected)`);
  return ok ? 0 : 1;
}

function fail(message) {
  console.error(`run-sdk-suite: ${message}`);
  process.exit(2);
}
