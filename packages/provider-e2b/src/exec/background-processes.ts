import { shellQuote } from './shell-quote';

/**
 * The variable the exec wrapper gives every command (set last, so a request's `env` cannot
 * change it): processes inherit their environment, so what a command started — background jobs,
 * `nohup` and `setsid` ones, their children — carries it too, and can be told from the sandbox's
 * own processes (envd, its init, E2B's services), which a count of every process could not.
 */
export const BACKGROUND_MARKER = 'RUNTIMECTL_EXEC';
/** The marker assignment the exec wrapper puts last on a command's `env` line. */
export const MARKER_ASSIGNMENT = `${BACKGROUND_MARKER}=1`;

const COUNT = `grep -lzx -e ${MARKER_ASSIGNMENT} /proc/[0-9]*/environ 2>/dev/null | wc -l`;
/** grep must run and handle NUL-separated lines, or the count would read 0: checked on a known input first. */
const TOOLS_WORK = `printf 'A=1\\0${MARKER_ASSIGNMENT}\\0' | grep -qzx -e ${MARKER_ASSIGNMENT} && command -v wc >/dev/null`;
/** Exit status of the count when the sandbox lacks what it needs (grep with -z, wc). */
export const COUNT_TOOLS_MISSING_EXIT = 3;

/**
 * The one command that counts the processes of the runtime's commands alive in the sandbox: every
 * `/proc/<pid>/environ` holding the marker, read by one `grep`. It runs in an environment without
 * the marker (should the sandbox's own variables carry it, its shell is replaced by one without
 * it first), so it never counts itself. A zombie's environment reads empty, so finished processes
 * do not count; neither do other users' processes (their environment is unreadable; the runtime's
 * commands run as one user). What it cannot see: a process started with a fresh environment
 * (`env -i`, `sudo`) once whatever started it has exited. Prints the number; exits
 * COUNT_TOOLS_MISSING_EXIT when grep (with `-z`) or wc is missing, rather than print a 0 it
 * could not count.
 */
export const BACKGROUND_PROCESSES_SCRIPT = `exec env -u ${BACKGROUND_MARKER} /bin/sh -c ${shellQuote(`${TOOLS_WORK} || exit ${COUNT_TOOLS_MISSING_EXIT}; ${COUNT}`)}`;

/** The count `BACKGROUND_PROCESSES_SCRIPT` printed; null for anything else (the sandbox lacks a tool). */
export function parseBackgroundProcesses(stdout: string): number | null {
  const text = stdout.trim();
  return /^\d{1,9}$/.test(text) ? Number(text) : null;
}
