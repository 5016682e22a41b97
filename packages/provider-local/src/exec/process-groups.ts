import { readdir, readFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';

/** Whether any process (a zombie included) is still in process group `pgid`. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

/**
 * Whether process group `pgid` still has a member that is not a zombie. Where init reaps
 * orphans lazily (some containers), killed background jobs linger as zombies for seconds; they
 * can no longer run, so waiting for them would only slow timeouts and release. Without /proc
 * (not Linux) any member counts.
 */
async function groupRunning(pgid: number): Promise<boolean> {
  if (!groupAlive(pgid)) return false;
  let pids: string[];
  try {
    pids = await readdir('/proc');
  } catch {
    return true;
  }
  for (const pid of pids) {
    if (!/^\d+$/.test(pid)) continue;
    let stat: string;
    try {
      stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Fields after the parenthesised command name: state, ppid, pgrp, …
    const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(group) === pgid && state !== 'Z' && state !== 'X') return true;
  }
  return false;
}

/** Polls until nothing in the group runs any more or `withinMs` passed; true when it stopped. */
export async function waitForGroupExit(pgid: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (await groupRunning(pgid)) {
    if (Date.now() >= deadline) return false;
    await delay(10);
  }
  return true;
}

/** SIGTERM to the whole group, then SIGKILL if anything is left after `graceMs`. */
export async function terminateGroup(pgid: number, graceMs: number): Promise<void> {
  signalGroup(pgid, 'SIGTERM');
  if (!(await waitForGroupExit(pgid, graceMs))) signalGroup(pgid, 'SIGKILL');
}

/**
 * The process groups one workspace's commands started (each command is its own group, led by
 * its shell). A group stays listed while anything in it runs — background jobs the shell left
 * behind — so `killAll` on release can end them. Empty groups are forgotten as soon as they are
 * seen empty: a group id may be reused by the system once its group is gone.
 */
export class ProcessGroups {
  readonly #groups = new Set<number>();

  add(pgid: number): void {
    this.#groups.add(pgid);
  }

  /** Forgets every group that has emptied. */
  prune(): void {
    for (const pgid of this.#groups) if (!groupAlive(pgid)) this.#groups.delete(pgid);
  }

  get size(): number {
    return this.#groups.size;
  }

  /** SIGKILLs every listed group and waits (up to `withinMs`) for them to go. */
  async killAll(withinMs: number): Promise<void> {
    this.prune();
    const groups = [...this.#groups];
    this.#groups.clear();
    for (const pgid of groups) signalGroup(pgid, 'SIGKILL');
    await Promise.all(groups.map((pgid) => waitForGroupExit(pgid, withinMs)));
  }
}
