import { closeSync, constants, fchmodSync, ftruncateSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** `fs-native-extensions` (no type declarations): a non-blocking exclusive lock on a whole file. */
const { tryLock } = createRequire(import.meta.url)('fs-native-extensions') as { tryLock(fd: number): boolean };

/** The file in the state directory whose lock marks it in use; it holds the holder's pid. */
export const STATE_DIR_LOCK_FILE = 'runtimed.lock';

/** How long a refused start waits for a holder that has just taken the lock to write its pid. */
const HOLDER_PID_WAIT_MS = 1_000;

/** Another process holds the state directory: this daemon must not start on it. */
export class StateDirInUseError extends Error {
  constructor(
    readonly stateDir: string,
    /** The holder's pid, null when it could not be read (the holder had not written it yet). */
    readonly holderPid: number | null,
  ) {
    const holder = holderPid === null ? 'another runtimed' : `another runtimed (pid ${holderPid})`;
    super(`the state directory ${stateDir} is in use by ${holder}; stop it, or give this daemon its own --state-dir`);
    this.name = 'StateDirInUseError';
  }
}

export interface StateDirLock {
  /** The lock file (`<state dir>/runtimed.lock`). */
  readonly path: string;
  /** Lets the state directory go (idempotent). The process's exit lets it go too. */
  release(): void;
}

/**
 * Takes the state directory for this process, or throws `StateDirInUseError` naming the
 * process that has it. Two daemons on one state directory share its node id, workspaces and
 * snapshots, and each one's start-up reconciliation releases what the other is working with, so
 * the second must not start — whatever its store.
 *
 * The lock is the kernel's (an open-file-description lock on Linux, flock elsewhere) on
 * `runtimed.lock`, created 0600: it goes with the process however the process ends (SIGKILL
 * included) and, its descriptor being close-on-exec, is never inherited by commands the daemon
 * runs — no pid file to go stale, no pid reuse to fool it. The file keeps the holder's pid, only
 * to name it in the refusal.
 */
export async function lockStateDir(stateDir: string): Promise<StateDirLock> {
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  const path = join(stateDir, STATE_DIR_LOCK_FILE);
  const fd = openSync(path, constants.O_RDWR | constants.O_CREAT, 0o600);
  let locked = false;
  try {
    locked = tryLock(fd);
  } finally {
    if (!locked) closeSync(fd);
  }
  if (!locked) throw new StateDirInUseError(stateDir, await holderPidOf(path));
  // Owner-only as all state is, one an older build left wider included.
  fchmodSync(fd, 0o600);
  ftruncateSync(fd, 0);
  writeSync(fd, `${process.pid}\n`, 0);
  let open = true;
  return {
    path,
    release() {
      if (!open) return;
      open = false;
      closeSync(fd);
    },
  };
}

/** The pid the holder wrote, waiting (bounded) for one that has just taken the lock; null if none came. */
async function holderPidOf(path: string): Promise<number | null> {
  const deadline = performance.now() + HOLDER_PID_WAIT_MS;
  for (;;) {
    const pid = Number(readFileSync(path, 'utf8').trim());
    if (Number.isSafeInteger(pid) && pid > 0) return pid;
    if (performance.now() >= deadline) return null;
    await sleep(20);
  }
}
