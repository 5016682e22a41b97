// Child processes of the run: the existing per-package benchmark scripts, the daemon, the bare
// route and the load generator. Everything the report measures runs in its own process.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { canPin } from './machine.mjs';

/** The repository root. */
export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const repoPath = (...parts) => join(repoRoot, ...parts);
export const RUNTIMED = repoPath('apps', 'daemon', 'dist', 'main.js');

/** `[command, args]` running node with `nodeArgs`, pinned to `core` when the machine allows. */
export function nodeOnCore(core, nodeArgs) {
  return canPin && core !== undefined
    ? ['taskset', ['-c', String(core), process.execPath, ...nodeArgs]]
    : [process.execPath, nodeArgs];
}

/** Resolves when `child` has exited (at once if it already has). */
export function exited(child) {
  return new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
}

/** SIGTERM, and SIGKILL after `graceMs`; resolves once the process is gone. */
export async function stopChild(child, graceMs = 5_000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = exited(child);
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await gone;
  clearTimeout(timer);
}

/**
 * Runs a node script to completion. Its stderr (progress lines) is passed through, prefixed;
 * its stdout is returned. Rejects when it exits non-zero.
 */
export function runNodeScript(script, args = [], { env = {}, cwd = dirname(script), label }) {
  const child = spawn(process.execPath, [script, ...args], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  createInterface({ input: child.stderr }).on('line', (line) => process.stderr.write(`  [${label}] ${line}\n`));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0 ? resolve(stdout) : reject(new Error(`${label}: ${script} exited with ${code ?? signal}`)),
    );
  });
}

/**
 * Spawns a program and resolves once a stdout line matches `pattern`, with that line and the
 * milliseconds from spawn to it. Rejects if the program exits first or takes over `timeoutMs`.
 */
export function spawnUntilLine(command, args, { env, pattern, timeoutMs = 60_000, stderr = 'ignore' }) {
  const startedAt = performance.now();
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', stderr] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${args.join(' ')}: no line matching ${pattern} within ${timeoutMs} ms`));
    }, timeoutMs);
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      if (!pattern.test(line)) return;
      clearTimeout(timer);
      lines.removeAllListeners('line');
      child.removeAllListeners('exit');
      // Keep draining stdout so the child never blocks on a full pipe.
      child.stdout.resume();
      resolve({ child, line, readyMs: performance.now() - startedAt });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited with ${code} before printing ${pattern}`));
    });
    // A spawn that fails emits only `error`: without this listener it is an uncaught exception
    // and the `exit` above never comes, so the start would wait for ever.
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`${command} could not be spawned: ${error.message}`));
    });
  });
}

/**
 * Starts the built `runtimed` (apps/daemon/dist/main.js) and waits for its start banner; the
 * `readyMs` returned is spawn → banner. Its logs (pino, stderr) go to /dev/null, as in the
 * per-package benchmarks: formatting and writing each line still costs what it costs.
 */
export async function startRuntimed({ args, env = {}, core }) {
  const [command, commandArgs] = nodeOnCore(core, [RUNTIMED, '--port', '0', ...args]);
  const started = await spawnUntilLine(command, commandArgs, {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    pattern: / listening on http:\/\//,
  });
  return { ...started, url: / listening on (http:\/\/\S+)/.exec(started.line)[1] };
}

/** Starts a server script that prints `{"url": …}` as its first stdout line. */
export async function startJsonUrlServer(script, { core, env = {} }) {
  const [command, commandArgs] = nodeOnCore(core, [script]);
  const started = await spawnUntilLine(command, commandArgs, { env: { ...process.env, ...env }, pattern: /^\{"url"/ });
  return { ...started, url: JSON.parse(started.line).url };
}

const CLOCK_TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;

/** CPU seconds (user + system) process `pid` has used so far, from /proc; undefined elsewhere. */
export function cpuSecondsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** Drops the page cache (needs root); false when it cannot. */
export function dropPageCache() {
  return spawnSync('sh', ['-c', 'sync && echo 3 > /proc/sys/vm/drop_caches'], { stdio: 'ignore' }).status === 0;
}
