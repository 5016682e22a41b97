import { readdirSync, readFileSync } from 'node:fs';

/** Every process's parent, read from /proc (Linux); empty where there is no /proc. */
function parentsByPid(): Map<number, number> {
  const parents = new Map<number, number>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return parents;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // `pid (comm) state ppid …`: comm may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), ppid);
    } catch {
      // The process ended while the table was read.
    }
  }
  return parents;
}

/** The pids of every living descendant of `root` (children, their children …), not `root` itself. */
export function descendantsOf(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of parentsByPid()) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const found: number[] = [];
  const pending = [...(children.get(root) ?? [])];
  while (pending.length > 0) {
    const pid = pending.pop()!;
    found.push(pid);
    pending.push(...(children.get(pid) ?? []));
  }
  return found;
}

/**
 * SIGKILLs every descendant of `root` — test workers and every server they started (PostgreSQL
 * as its own user, daemons, sandboxes) — read in one pass first, so a parent killed early cannot
 * hand its children to init before they are found. Returns how many were signalled.
 */
export function killDescendants(root: number): number {
  const pids = descendantsOf(root);
  let killed = 0;
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
      killed += 1;
    } catch {
      // Already gone.
    }
  }
  return killed;
}
