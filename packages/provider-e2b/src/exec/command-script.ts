import { MARKER_ASSIGNMENT } from './background-processes';
import { shellQuote } from './shell-quote';

export interface CommandScriptRequest {
  /** Absolute directory the command starts in. */
  cwd: string;
  shell: string;
  command: string;
  /** Exactly the variables the caller asked for (names already checked). */
  env: Record<string, string>;
  /** Bytes kept of stdout and of stderr each. */
  maxOutputBytes: number;
  /** Kill the command's process group this long after it started. */
  timeoutMs?: number;
  /** Between SIGTERM and SIGKILL to a timed-out command's process group. */
  killGraceMs: number;
}

/**
 * How long the script keeps copying output after the command exited, in steps of 5 ms: while a
 * background job of the command still runs (it may hold the output open for ever), ~100 ms;
 * once none is left, the copies end at the end of their streams, so they are waited for, up to
 * ~10 s (a process that left the command's process group may still hold them).
 */
const DRAIN_STEPS_WHILE_JOBS_RUN = 20;
const DRAIN_STEPS_AFTER_JOBS = 2_000;
const STEP_MS = 5;
const STEP_SECONDS = '0.005';
/**
 * After SIGKILL, how long (in steps) the watchdog waits for the killed group to be gone — every
 * process exited and reaped — before the result comes back: ~2 s. Until then its processes still
 * count against the sandbox's process limit, and the next command could not start.
 */
const REAP_STEPS = 400;

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/**
 * The bash script `commands.run` executes (as `/bin/bash -l -c <script>`) for one exec. Why not
 * run the command directly:
 *
 * - **Binary output.** The SDK decodes stdout/stderr as UTF-8 text, so bytes that are not valid
 *   UTF-8 would come back as U+FFFD. The script sends both streams base64-encoded instead.
 * - **The cap.** Each stream is copied into a file until cap+1 bytes came or the stream ended,
 *   and the rest is drained to /dev/null (`cat`), so a command printing gigabytes runs to its end
 *   without SIGPIPE, costs the sandbox at most the cap on disk, and only the cap crosses the
 *   network; cap+1 bytes in the file means truncated. One `dd … iflag=count_bytes` alone does not
 *   do it: without `fullblock` it stops after a fixed number of *reads*, so output arriving in
 *   small pieces lost its tail; `head -c` or `fullblock` hold what they read in a buffer, so the
 *   output of a command whose background job keeps the pipe open would never reach the file. So
 *   `dd` (which writes every read at once) runs again for what is still missing until a run
 *   copies nothing (end of stream).
 * - **Timeouts kill the tree.** envd's own deadline kills only the top process; the command runs
 *   under `setsid` (its own process group) and a watchdog sends SIGTERM to the whole group at the
 *   timeout and SIGKILL after `killGraceMs` unless the group is gone sooner, then waits (bounded)
 *   until every process of it is reaped, and marks the result timed out. The script waits for the
 *   watchdog once it fired: the command's shell exiting at SIGTERM says nothing of a child that
 *   ignores it, and a killed group's processes hold the sandbox's process limit until reaped. The
 *   watchdog is a subshell sleeping with bash's own `read -t`, so it forks nothing once started.
 * - **Counting what it leaves running.** The command gets `RUNTIMECTL_EXEC=1` (see
 *   BACKGROUND_MARKER), inherited by everything it starts, so the backend can count them.
 * - **Background jobs** (`server &`) do not hold the exec open: once the command's shell exits,
 *   output is read for at most ~100 ms more while a process of its group lives. When none does,
 *   the output copies are awaited to their end (bounded): on a busy machine they may lag the
 *   command by far more than 100 ms, and cutting them then lost output silently.
 *
 * It prints three lines on stdout: base64(stdout), base64(stderr), then `exit <code>`,
 * `timeout`, `cwd` (the directory is missing) or `setup` (the sandbox lacks a tool the script
 * needs); and exits with the command's code. Needs bash, coreutils (`dd` with `count_bytes`, `wc`,
 * `cat`, `base64`, `mktemp`, `mkfifo`) and util-linux `setsid`, as E2B's templates have.
 */
export function commandScript(request: CommandScriptRequest): string {
  const cap = request.maxOutputBytes + 1;
  const filter = (name: string) => `capped_copy "$d/${name}.bytes" <"$d/${name}" >/dev/null & p${name}=$!`;
  const assignments = Object.entries(request.env).map(([name, value]) => shellQuote(`${name}=${value}`));
  // The marker last, so a request's env cannot change it (see BACKGROUND_MARKER).
  const launch = ['setsid', 'env', '--', ...assignments, MARKER_ASSIGNMENT, shellQuote(request.shell), '-c', shellQuote(request.command)].join(' ');
  const lines = [
    'exec 2>/dev/null',
    `cd -- ${shellQuote(request.cwd)} || { printf '\\n\\ncwd\\n'; exit 0; }`,
    `d=$(mktemp -d "\${TMPDIR:-/tmp}/rtctl-exec.XXXXXXXX") || { printf '\\n\\nsetup\\n'; exit 0; }`,
    `mkfifo "$d/o" "$d/e" "$d/w" || { rm -rf -- "$d"; printf '\\n\\nsetup\\n'; exit 0; }`,
    // A FIFO opened read-write never delivers anything: `read -t` on it is a sleep without a process.
    'exec 9<>"$d/w"',
    // Copies stdin into $1 until ${cap} bytes or the end, every read written at once; drains the rest.
    // bs=512: each dd run may take cap/512 reads, so a trickle of small writes costs few runs.
    `capped_copy() { local n=0 m; while [ $n -lt ${cap} ]; do dd bs=512 count=$((${cap}-n)) iflag=count_bytes status=none >>"$1" || break; m=$(wc -c <"$1"); [ "$m" -gt $n ] || break; n=$m; done; cat >/dev/null; }`,
    filter('o'),
    filter('e'),
    `${launch} </dev/null >"$d/o" 2>"$d/e" 9>&- & pid=$!`,
  ];
  if (request.timeoutMs !== undefined) {
    const graceSteps = Math.max(1, Math.ceil(request.killGraceMs / STEP_MS));
    // While `kill -0` reaches a process of the group (a zombie too: it holds its pid until reaped).
    const whileGroupLives = (steps: number) => `n=0; while [ $n -lt ${steps} ] && kill -0 -- "-$pid"; do read -r -t ${STEP_SECONDS} -u 9; n=$((n+1)); done`;
    lines.push(
      `( read -r -t ${seconds(request.timeoutMs)} -u 9; : >"$d/timeout"; kill -TERM -- "-$pid"; ${whileGroupLives(graceSteps)}; kill -KILL -- "-$pid"; ${whileGroupLives(REAP_STEPS)} ) </dev/null >/dev/null & wd=$!`,
    );
  }
  lines.push(
    'wait "$pid"; status=$?',
    // Past the timeout the watchdog is left to finish: the shell exiting at SIGTERM says nothing of its children.
    request.timeoutMs !== undefined ? 'if [ -e "$d/timeout" ]; then wait "$wd"; else kill -KILL "$wd"; fi' : ':',
    `if kill -0 -- "-$pid"; then steps=${DRAIN_STEPS_WHILE_JOBS_RUN}; else steps=${DRAIN_STEPS_AFTER_JOBS}; fi`,
    `n=0; while [ $n -lt $steps ] && { kill -0 "$po" || kill -0 "$pe"; }; do read -r -t ${STEP_SECONDS} -u 9; n=$((n+1)); done`,
    `base64 -w 0 <"$d/o.bytes"; printf '\\n'`,
    `base64 -w 0 <"$d/e.bytes"; printf '\\n'`,
    `if [ -e "$d/timeout" ]; then rm -rf -- "$d"; printf 'timeout\\n'; exit 124; fi`,
    `rm -rf -- "$d"; printf 'exit %d\\n' "$status"; exit "$status"`,
  );
  return lines.join('\n');
}
