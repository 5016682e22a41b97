import { readdir, readFile, readlink } from 'node:fs/promises';
import { isRunning, type ProcessIdentity } from './process-start';

const ZOMBIE_STATES = new Set(['Z', 'X']);

/** Fields 3.. of /proc/<pid>/stat (after the parenthesised command name): state, ppid, pgrp, session, …; undefined when gone. */
async function statFields(path: string): Promise<string[] | undefined> {
  try {
    const stat = await readFile(path, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

const isLive = (fields: string[] | undefined): fields is string[] => fields !== undefined && !ZOMBIE_STATES.has(fields[0]!);
const sessionOf = (fields: string[]) => fields[3]!;

/**
 * How many processes run in the PID namespace whose init is `holder`, besides the init and what
 * it runs itself (its timer): everything commands entered into the sandbox started and left
 * running (background jobs, `setsid` children, commands still running). Zombies (finished, not
 * yet reaped) do not count. 0 once the holder is gone: the kernel killed the namespace with it.
 *
 * Whether it is 0 is the answer that matters (a caller stops the sandbox, or seals its files, on
 * a 0), and a listing of /proc cannot give it soundly: a job hopping from process to process
 * (each forks the next, then exits) can stay ahead of a listing. So where the sandbox's cgroup
 * counts its jobs (`jobTasks`: `pids.current` of its jobs group, charged when a fork begins and
 * freed when the task is reaped, one number read at once), that count decides: 0 there is 0. A
 * count above 0 while no process is listed (a task between fork and exit, a zombie the init is
 * about to reap) is looked at again a few times; one that stays is "something runs" (1).
 *
 * The number itself, and the answer where no cgroup counts (a sandbox without limits, or started
 * before its jobs had a group of their own), come from the namespace's own /proc
 * (`/proc/<holder>/root/proc`), read without entering the sandbox, in time proportional to its
 * processes; the init's own are its children in its session
 * (`/proc/<holder>/task/<holder>/children`, host view), which no command can join since commands
 * enter from outside through `nsenter`, each in a session of its own. The init's own are read
 * before and after the listing (it replaces its timer now and then) and a listed process is looked
 * at again before it is counted. Without a cgroup count a 0 must be confirmed: by the init's
 * children (what a command left is reparented to it) and by further scans that agree, which makes
 * a hopping job's dodge rare, not impossible. Where either read is not possible (a kernel without
 * `children` files), every host process is looked at instead (countByHostScan).
 */
export async function countSandboxProcesses(holder: ProcessIdentity, jobTasks?: () => Promise<number | undefined>): Promise<number> {
  if (!(await isRunning(holder))) return 0;
  const counted = await jobTasks?.();
  if (counted !== undefined) return countWithJobTasks(holder, counted, jobTasks!);
  let zeros = 0;
  for (let scan = 0; zeros <= ZERO_CONFIRMATIONS; scan += 1) {
    if (scan > 0 && !(await isRunning(holder))) return 0;
    // Processes kept forking and exiting under every listing: something runs.
    if (scan >= MAX_SCANS) return 1;
    const found = await scanOnce(holder);
    if (found === undefined) return countByHostScan(holder);
    if (found > 0) return found;
    zeros += 1;
    // A listing of /proc is no snapshot: a job hopping from process to process (each forks the
    // next, then exits) can stay ahead of one. A 0 stands only when scans apart agree.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return 0;
}

/** The count where the kernel counts the jobs' tasks (`tasks`, read first): see countSandboxProcesses. */
async function countWithJobTasks(holder: ProcessIdentity, tasks: number, jobTasks: () => Promise<number | undefined>): Promise<number> {
  for (let look = 0; tasks > 0; look += 1) {
    const found = (await scanOnce(holder)) ?? (await countByHostScan(holder));
    if (found > 0) return found;
    // Tasks the kernel counts but no listing shows: one forking or exiting, a zombie not reaped yet.
    if (look >= TASK_LOOKS) return 1;
    await new Promise((resolve) => setTimeout(resolve, look));
    tasks = (await jobTasks()) ?? 1;
  }
  return 0;
}

/** Looks again at tasks the cgroup counts while no process is listed, before they count as one. */
const TASK_LOOKS = 8;
/** Scans after a first one found nothing that must find nothing too before the answer is 0. */
const ZERO_CONFIRMATIONS = 5;
/** Scans before the answer is "something runs" without a number. */
const MAX_SCANS = 12;

/**
 * One look: the processes of the namespace that are not the init's own, or -1 (look again) when a
 * listed one vanished before its stat (it may have forked a child the listing missed); undefined
 * when /proc cannot be read that way.
 */
async function scanOnce(holder: ProcessIdentity): Promise<number | undefined> {
  const ownBefore = await holdersOwnPids(holder.pid);
  const listed = await pidsInside(holder.pid);
  if (listed === undefined || ownBefore === undefined) return undefined;
  if (listed.live.length === 0 && listed.vanished.length === 0) return (await initHasOthersChildren(holder.pid)) ? 1 : 0;
  // The init replaces its timer now and then: a timer listed is the init's in either read.
  const ownAfter = (await holdersOwnPids(holder.pid)) ?? ownBefore;
  const notOwn = (pid: string) => !ownBefore.has(pid) && !ownAfter.has(pid);
  // A timer that ended after the listing (replaced by one the second read names) is gone now.
  const stillLive = await Promise.all(listed.live.filter(notOwn).map(async (pid) => isLive(await statFields(`/proc/${holder.pid}/root/proc/${pid}/stat`))));
  const count = stillLive.filter(Boolean).length;
  if (count > 0) return count;
  if (listed.vanished.some(notOwn)) return 0;
  // What a command leaves running descends from the init once its parent exits (orphans are reparented to it).
  return (await initHasOthersChildren(holder.pid)) ? 1 : 0;
}

/**
 * The processes of the holder's namespace but its init, by their pids there: `live` ones, and
 * `vanished` ones listed but gone (or zombies) by the time their stat was read; undefined when
 * its /proc cannot be read.
 */
async function pidsInside(holderPid: number): Promise<{ live: string[]; vanished: string[] } | undefined> {
  const proc = `/proc/${holderPid}/root/proc`;
  let names: string[];
  try {
    names = await readdir(proc);
  } catch {
    return undefined;
  }
  const pids = names.filter((name) => /^\d+$/.test(name) && name !== '1');
  const live = await Promise.all(pids.map(async (pid) => isLive(await statFields(`${proc}/${pid}/stat`))));
  return { live: pids.filter((_, index) => live[index]), vanished: pids.filter((_, index) => !live[index]) };
}

/**
 * The init's own processes (its timer: its children in its session, which no command can join),
 * by their host pids; undefined when unreadable (the init gone, or a kernel without `children`).
 */
export async function initsOwnHostPids(holderPid: number): Promise<string[] | undefined> {
  const holder = await statFields(`/proc/${holderPid}/stat`);
  let children: string;
  try {
    children = await readFile(`/proc/${holderPid}/task/${holderPid}/children`, 'utf8');
  } catch {
    return undefined;
  }
  if (!holder) return undefined;
  const own: string[] = [];
  for (const child of children.split(' ').filter(Boolean)) {
    const fields = await statFields(`/proc/${child}/stat`);
    if (fields && sessionOf(fields) === sessionOf(holder)) own.push(child);
  }
  return own;
}

/** Whether the init has a live child outside its own session: a process a command left, reparented to it. */
async function initHasOthersChildren(holderPid: number): Promise<boolean> {
  const [holder, children] = await Promise.all([statFields(`/proc/${holderPid}/stat`), readFile(`/proc/${holderPid}/task/${holderPid}/children`, 'utf8').catch(() => '')]);
  if (!holder) return false;
  for (const child of children.split(' ').filter(Boolean)) {
    const fields = await statFields(`/proc/${child}/stat`);
    if (isLive(fields) && sessionOf(fields) !== sessionOf(holder)) return true;
  }
  return false;
}

/** The init's own processes (initsOwnHostPids) by their pids inside its namespace; undefined when unreadable. */
async function holdersOwnPids(holderPid: number): Promise<Set<string> | undefined> {
  const hostPids = await initsOwnHostPids(holderPid);
  if (!hostPids) return undefined;
  const own = new Set<string>();
  for (const child of hostPids) {
    const inner = await innerPidOf(child);
    // Without its number inside (a kernel before NSpid), the timer could not be told apart.
    if (!inner) return undefined;
    own.add(inner);
  }
  return own;
}

/** `pid`'s number in the innermost PID namespace it is in (last field of `NSpid:` in its status). */
async function innerPidOf(pid: string): Promise<string | undefined> {
  try {
    const line = (await readFile(`/proc/${pid}/status`, 'utf8')).split('\n').find((entry) => entry.startsWith('NSpid:'));
    return line?.trim().split(/\s+/).at(-1);
  } catch {
    return undefined;
  }
}

/** The PID namespace `pid` is in (`pid:[inode]`), or undefined when it is gone or not ours to inspect. */
async function pidNamespaceOf(pid: string): Promise<string | undefined> {
  try {
    return await readlink(`/proc/${pid}/ns/pid`);
  } catch {
    return undefined;
  }
}

/**
 * The same count from every host process: one inside has its `ns/pid` link naming the holder's
 * namespace, and is the init's own when it shares the init's session. Costs a look at every
 * process on the host (tens of milliseconds with a thousand), so only the fallback. Processes
 * this caller may not inspect (other users') are outside by construction: every process in the
 * sandbox runs as the caller's user, mapped to root inside.
 */
export async function countByHostScan(holder: ProcessIdentity): Promise<number> {
  const holderPid = String(holder.pid);
  const [namespace, holderFields] = await Promise.all([pidNamespaceOf(holderPid), statFields(`/proc/${holderPid}/stat`)]);
  if (!namespace || !holderFields || !(await isRunning(holder))) return 0;
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name) && name !== holderPid);
  const inside = await Promise.all(
    pids.map(async (pid) => {
      if ((await pidNamespaceOf(pid)) !== namespace) return false;
      const fields = await statFields(`/proc/${pid}/stat`);
      return isLive(fields) && sessionOf(fields) !== sessionOf(holderFields);
    }),
  );
  return inside.filter(Boolean).length;
}
