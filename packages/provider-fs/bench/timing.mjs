// What every provider-fs bench times with: one definition of a median, a step, a timing.
import { spawnSync } from 'node:child_process';

export const log = (line) => process.stderr.write(`${line}\n`);

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** Runs a command to its end; throws with its standard error when it fails. */
export function run(command, argv) {
  const result = spawnSync(command, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
  if (result.status !== 0) throw new Error(`${command} ${argv.join(' ')}: ${result.stderr?.toString() || `exit ${result.status}`}`);
}

/** Milliseconds `fn` takes, with what it returned. */
export async function timed(fn) {
  const startedAt = performance.now();
  const result = await fn();
  return { ms: performance.now() - startedAt, result };
}

/** `timed`, after a `sync` so that dirty pages of earlier steps are not counted in `fn`'s time. */
export function timedAfterSync(fn) {
  run('sync', []);
  return timed(fn);
}
