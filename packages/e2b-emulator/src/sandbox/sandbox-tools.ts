/**
 * Tools an E2B template has that a host may not, shown read-only in every namespaced sandbox:
 * `sudo`. E2B's `user` has password-less sudo; here `user` and `root` are one identity (see
 * docs/e2b-emulator-fidelity.md, "Users"), so `sudo` needs no privilege to give — it does what
 * sudo's defaults do to the command (env_reset: a fresh environment for the target user, `-E`
 * keeps the caller's) and runs it. A shared directory, bound read-only: no sandbox can change
 * what another runs.
 */
import { mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SandboxBind } from '@runtimectl/namespace-sandbox';
import { SANDBOX_PATH } from './sandbox-users.js';

/** Where the tools appear inside: on E2B's PATH before /usr/bin, empty on Debian hosts. */
const TOOLS_TARGET = '/usr/local/sbin';


/**
 * sudo's options that matter to a script: `-u USER`, `-g GROUP`, `-E`, `-H`, `-n`, `-S`, `-i`,
 * `-s`, `--`. Others are refused by name rather than guessed at.
 */
export const SUDO_SCRIPT = `#!/bin/sh
# sudo in an E2B emulator sandbox (@runtimectl/e2b-emulator): the sandbox's users are one
# identity, so there is no privilege to give; the command gets sudo's reset environment.
target=root keep=
while [ $# -gt 0 ]; do
  case "$1" in
    --) shift; break ;;
    -u|--user) target="$2"; shift 2 ;;
    --user=*) target="\${1#--user=}"; shift ;;
    -g|--group) shift 2 ;;
    -E|--preserve-env) keep=1; shift ;;
    -H|--set-home|-n|--non-interactive|-S|--stdin) shift ;;
    -i|--login|-s|--shell) [ $# -gt 1 ] || set -- "$1" "\${SHELL:-/bin/sh}"; shift ;;
    -*) echo "sudo: $1: not an option this sandbox's sudo knows" >&2; exit 1 ;;
    *) break ;;
  esac
done
if [ $# -eq 0 ]; then echo "usage: sudo [-E] [-u user] command [arg ...]" >&2; exit 1; fi
case "$target" in
  root) home=/root ;;
  user) home=/home/user ;;
  *) echo "sudo: unknown user $target" >&2; exit 1 ;;
esac
invoker="SUDO_USER=\${USER:-user}"
if [ -n "$keep" ]; then exec env HOME="$home" USER="$target" LOGNAME="$target" "$invoker" "$@"; fi
exec env -i PATH=${SANDBOX_PATH} HOME="$home" USER="$target" LOGNAME="$target" SHELL=/bin/bash "$invoker" \\
  \${TERM:+TERM="$TERM"} \${LANG:+LANG="$LANG"} "$@"
`;

/**
 * Writes the tools into `<root>/sandbox-tools` and says how to show them (read-only, at
 * /usr/local/sbin); undefined when the host has no /usr/local/sbin to show them on (the
 * sandbox's /usr is the host's, read-only: nothing can be made there).
 */
export async function installSandboxTools(root: string): Promise<SandboxBind | undefined> {
  const target = await stat(TOOLS_TARGET).catch(() => undefined);
  if (!target?.isDirectory()) return undefined;
  const directory = path.join(root, 'sandbox-tools');
  await mkdir(directory, { recursive: true, mode: 0o755 });
  await writeFile(path.join(directory, 'sudo'), SUDO_SCRIPT, { mode: 0o755 });
  return { source: directory, target: TOOLS_TARGET, readOnly: true };
}
