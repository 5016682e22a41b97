import { readFile } from 'node:fs/promises';

/** A host process named by its pid and its start time, so a reused pid is never mistaken for it. */
export interface ProcessIdentity {
  pid: number;
  /** Field 22 of /proc/<pid>/stat: clock ticks after boot when it started. */
  startTime: string;
}

interface ProcessState {
  state: string;
  parent: number;
  startTime: string;
}

async function processState(pid: number): Promise<ProcessState | undefined> {
  let stat: string;
  try {
    stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // After the parenthesised command name: state (field 3) … starttime (field 22).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0]!, parent: Number(fields[1]), startTime: fields[19]! };
}

/** The identity of the live process `pid`, or undefined when there is none. */
export async function identify(pid: number): Promise<ProcessIdentity | undefined> {
  const state = await processState(pid);
  return state ? { pid, startTime: state.startTime } : undefined;
}

/** Whether `identity` still names a running process (a zombie has finished: not running). */
export async function isRunning(identity: ProcessIdentity): Promise<boolean> {
  const state = await processState(identity.pid);
  return state !== undefined && state.startTime === identity.startTime && state.state !== 'Z' && state.state !== 'X';
}

/** The pid of `pid`'s parent, or undefined when `pid` is gone. */
export async function parentOf(pid: number): Promise<number | undefined> {
  return (await processState(pid))?.parent;
}
