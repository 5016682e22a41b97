import { readdir, readFile, readlink } from 'node:fs/promises';
import { isRunning, type ProcessIdentity } from './process-start';

interface ProcessFacts {
  state: string;
  session: string;
}

/** State and session id (fields 3 and 6 of /proc/<pid>/stat, in the host's pid numbers); undefined when gone. */
async function factsOf(pid: string): Promise<ProcessFacts | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // After the parenthesised command name: state, ppid, pgrp, session, …
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0]!, session: fields[3]! };
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
 * How many processes run in the PID namespace whose init is `holder`, besides the init and what
 * it runs itself: everything commands entered into the sandbox started and left running
 * (background jobs, `setsid` children, commands still running). Zombies (finished, not yet
 * reaped) do not count. 0 once the holder is gone: the kernel killed the namespace with it.
 *
 * Read from the host's /proc, without entering the sandbox: a process is inside when its
 * `ns/pid` link names the holder's namespace, and it is the holder's own (its timer) when it
 * shares the holder's session — which no command can join, since commands enter from outside
 * through `nsenter`, each in a session of its own. Processes this caller may not inspect (other
 * users', whose `ns/pid` link it cannot read) are outside by construction: every process in the
 * sandbox runs as the caller's user, mapped to root inside.
 */
export async function countSandboxProcesses(holder: ProcessIdentity): Promise<number> {
  const holderPid = String(holder.pid);
  const [namespace, holderFacts] = await Promise.all([pidNamespaceOf(holderPid), factsOf(holderPid)]);
  if (!namespace || !holderFacts || !(await isRunning(holder))) return 0;
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name) && name !== holderPid);
  const inside = await Promise.all(
    pids.map(async (pid) => {
      if ((await pidNamespaceOf(pid)) !== namespace) return false;
      const facts = await factsOf(pid);
      return facts !== undefined && facts.state !== 'Z' && facts.state !== 'X' && facts.session !== holderFacts.session;
    }),
  );
  return inside.filter(Boolean).length;
}
