/**
 * Host-side wrappers around what a sandbox runs. Each is `sh -c <script> <name> <arguments…>`:
 * values arrive as parameters, never spliced into the script text.
 */

/**
 * Puts itself into a cgroup, then becomes the command: `<procs file>… -- <argv>`. Writing its own
 * pid into each hierarchy's `cgroup.procs` before the exec means nothing of the command ever runs
 * outside the sandbox's limits (a process moved after it started could fork first). Exit 125 when
 * a group refuses it.
 */
export const ENTER_CGROUP_SCRIPT = 'while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; shift; exec "$@"';

/**
 * Starts a sandbox with a user-mode network stack: `<k> <helper argv (k words)> <sandbox argv…>`.
 * The sandbox side runs with fd 3 the write end of a pipe and its stdout the launcher's; its setup
 * writes its host pid there (see SETUP_SCRIPT) and its init keeps the pipe open for life. The
 * helper side reads that pid, starts the helper argv with every word `{pid}` replaced by it,
 * outside the sandbox (and outside its cgroup), then reads the pipe to its end — the end of the sandbox's last process — and stops
 * the helper: a helper never outlives its sandbox, however the sandbox ends. The helper's own
 * output goes to /dev/null: it lives longer than the caller reads this launcher's output.
 */
export const EGRESS_LAUNCH_SCRIPT = String.raw`exec 4>&1
k=$1; shift
{ shift "$k"; exec "$@" 3>&1 1>&4 4>&-; } | {
  exec 4>&-
  words=; i=1
  while [ "$i" -le "$k" ]; do words="$words \"\${$i}\""; i=$((i + 1)); done
  eval "set -- $words"
  read -r pid || exit 0
  for word; do
    if [ "$word" = '{pid}' ]; then set -- "$@" "$pid"; else set -- "$@" "$word"; fi
    shift
  done
  "$@" </dev/null >/dev/null 2>&1 &
  helper=$!
  cat >/dev/null
  kill "$helper" 2>/dev/null
  wait
}`;
