#!/usr/bin/env node
// The README's two commands (`npm start`, `npm test`) run through here, so a fresh machine with
// only Node and npm needs nothing typed first: get the pinned pnpm, install from the lockfile,
// then build/test/start through turbo. Plain Node, no dependencies: it runs before any install.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { constants } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pinned = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager.split('@')[1];
const localBin = join(root, '.tools', 'node_modules', '.bin');
const localPnpm = join(localBin, 'pnpm');

const env = {
  ...process.env,
  TURBO_TELEMETRY_DISABLED: '1',
  DO_NOT_TRACK: '1',
  JOBS: process.env.JOBS ?? 'max',
};
// better-sqlite3 compiles from source here (its prebuilt download is unreachable); node-gyp must
// use the Debian Node headers instead of downloading them. pnpm ignores ~/.npmrc's nodedir.
if (!env.npm_config_nodedir && existsSync('/usr/include/node/node.h')) env.npm_config_nodedir = '/usr';

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, env, stdio: 'inherit', ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function versionOf(command) {
  const result = spawnSync(command, ['--version'], { env, encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

// Every process started from here (turbo above all, which looks `pnpm` up on the PATH because
// packageManager names it) must find the pnpm chosen here, so the .tools copy goes first on the
// PATH rather than being called by its full path alone.
function useLocalPnpm() {
  env.PATH = [localBin, ...(env.PATH ?? '').split(delimiter).filter((entry) => entry !== localBin)].join(delimiter);
  return 'pnpm';
}

function findPnpm() {
  if (versionOf('pnpm') === pinned) return 'pnpm';
  if (existsSync(localPnpm) && versionOf(localPnpm) === pinned) return useLocalPnpm();
  console.error(`[runtimectl] installing pnpm ${pinned} into .tools/ (one time)`);
  const status = run('npm', ['install', '--prefix', join(root, '.tools'), '--no-audit', '--no-fund', `pnpm@${pinned}`]);
  if (status !== 0 || versionOf(localPnpm) !== pinned) {
    console.error(`[runtimectl] could not install pnpm ${pinned}; install it with: npm i -g pnpm@${pinned}`);
    process.exit(1);
  }
  return useLocalPnpm();
}

// The daemon runs as a child of this script, itself a child of npm: a SIGTERM or SIGINT sent to
// npm or to this script must reach the daemon (which shuts down gracefully), and this script exits
// with the daemon's status, so `npm start` behaves as the daemon itself does.
function runForwardingSignals(command, args) {
  const child = spawn(command, args, { cwd: root, env, stdio: 'inherit' });
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('error', (error) => {
    console.error(`[runtimectl] could not start ${command}: ${error.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
}

function step(pnpm, args) {
  const status = run(pnpm, args);
  if (status !== 0) process.exit(status);
}

const task = process.argv[2];
const extra = process.argv.slice(3);
const pnpm = findPnpm();
step(pnpm, ['install', '--frozen-lockfile']);

switch (task) {
  case 'test':
    // turbo shows only failing packages' output: the console's browser tests skipping on a machine
    // without Chromium must still be said, once (tests/console/support/chromium-path.ts says the same).
    if (!existsSync('/usr/bin/chromium')) console.log('[runtimectl] console tests: skipped: no Chromium at /usr/bin/chromium (apt-get install chromium)');
    // --continue: every package reports even when one fails; --concurrency=2: the machines have
    // two cores, and test suites that spawn daemons and shells get flaky when oversubscribed.
    step(pnpm, ['exec', 'turbo', 'run', 'lint', 'test', '--continue', '--concurrency=2', '--output-logs=errors-only', ...extra]);
    break;
  case 'start':
    if (!existsSync(join(root, 'apps', 'daemon', 'package.json'))) {
      console.log('[runtimectl] the daemon (runtimed) is not built yet: it arrives with apps/daemon.');
      console.log('[runtimectl] today: `npm test` runs the control plane in packages/core against the memory provider.');
      process.exit(0);
    }
    step(pnpm, ['exec', 'turbo', 'run', 'build', '--filter=@runtimectl/daemon...', '--output-logs=errors-only']);
    runForwardingSignals(process.execPath, [join(root, 'apps', 'daemon', 'dist', 'main.js'), ...extra]);
    break;
  case 'bench':
    step(pnpm, ['exec', 'turbo', 'run', 'build', '--output-logs=errors-only']);
    process.exit(run(process.execPath, [join(root, 'bench', 'run.mjs'), ...extra]));
    break;
  default:
    console.error('usage: node scripts/bootstrap.mjs <start|test|bench> [args…]');
    process.exit(2);
}
