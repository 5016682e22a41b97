/**
 * What an E2B template has that a host may not, shown read-only in every namespaced sandbox:
 * `sudo` at /usr/local/sbin, and an /etc/passwd and /etc/group that name `user` (uid and gid
 * 1000, home /home/user) beside the host's system accounts. E2B's `user` has password-less sudo.
 * With two identities (see SandboxOwners) sudo becomes its target user through `SUDO_HELPER`: a
 * copy of setpriv owned by the sandboxes' root and setuid, on a bind that is not `nosuid`, as
 * sudo itself is a setuid program on a VM. Its host directory is one host users cannot enter
 * (0700), or they could run it as that identity on the host. With one identity sudo has no
 * privilege to give, and only does what sudo's defaults do to the command (env_reset: a fresh
 * environment for the target user, `-E` keeps the caller's). Shared directories, bound
 * read-only: no sandbox can change what another runs.
 */
import { copyFile, chmod, chown, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SandboxBind } from '@runtimectl/namespace-sandbox';
import { USER_ID_INSIDE, type HostUsers } from './sandbox-owners.js';
import { SANDBOX_PATH } from './sandbox-users.js';

/** Where the tools appear inside: on E2B's PATH before /usr/bin, empty on Debian hosts. */
const TOOLS_TARGET = '/usr/local/sbin';

/** The setuid setpriv sudo switches users with, when there are two (a hidden name beside sudo). */
const SUDO_HELPER = '.sudo-setpriv';

/** Where setpriv is: util-linux's, which namespace sandboxes need anyway. */
const SETPRIV = '/usr/bin/setpriv';


/**
 * sudo's options that matter to a script: `-u USER`, `-g GROUP`, `-E`, `-H`, `-n`, `-S`, `-i`,
 * `-s`, `--`. Others are refused by name rather than guessed at.
 */
export const SUDO_SCRIPT = `#!/bin/sh
# sudo in an E2B emulator sandbox (@runtimectl/e2b-emulator): the command gets sudo's reset
# environment and runs as the target user, through the setuid helper beside this script when
# the sandbox's users are two identities (without it they are one, and there is nothing to switch).
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
  root) home=/root id=0 ;;
  user) home=/home/user id=${USER_ID_INSIDE} ;;
  *) echo "sudo: unknown user $target" >&2; exit 1 ;;
esac
become=
helper=${TOOLS_TARGET}/${SUDO_HELPER}
if [ -u "$helper" ]; then become="$helper --reuid=$id --regid=$id --init-groups --"; fi
invoker="SUDO_USER=\${USER:-user}"
if [ -n "$keep" ]; then exec $become env HOME="$home" USER="$target" LOGNAME="$target" "$invoker" "$@"; fi
exec $become env -i PATH=${SANDBOX_PATH} HOME="$home" USER="$target" LOGNAME="$target" SHELL=/bin/bash "$invoker" \\
  \${TERM:+TERM="$TERM"} \${LANG:+LANG="$LANG"} "$@"
`;

/**
 * Writes the tools under `<root>/sandbox-tools` (0700) and says how to show them, read-only:
 * `sbin/` at /usr/local/sbin — only when the host has a /usr/local/sbin to show it on (the
 * sandbox's /usr is the host's, read-only: nothing can be made there) — and `etc/passwd` and
 * `etc/group` over the host's. With `hostUsers`, sudo's setuid helper is in `sbin/`, owned by
 * the sandboxes' root.
 */
export async function installSandboxTools(root: string, hostUsers?: HostUsers): Promise<SandboxBind[]> {
  const directory = path.join(root, 'sandbox-tools');
  await mkdir(directory, { recursive: true, mode: 0o700 });
  await chmod(directory, 0o700);
  const etc = path.join(directory, 'etc');
  await mkdir(etc, { recursive: true, mode: 0o755 });
  await writeFile(path.join(etc, 'passwd'), withUser(await readFile('/etc/passwd', 'utf8').catch(() => ''), `user:x:${USER_ID_INSIDE}:${USER_ID_INSIDE}::/home/user:/bin/bash`));
  await writeFile(path.join(etc, 'group'), withUser(await readFile('/etc/group', 'utf8').catch(() => ''), `user:x:${USER_ID_INSIDE}:`));
  const binds: SandboxBind[] = [
    { source: path.join(etc, 'passwd'), target: '/etc/passwd', readOnly: true },
    { source: path.join(etc, 'group'), target: '/etc/group', readOnly: true },
  ];
  const target = await stat(TOOLS_TARGET).catch(() => undefined);
  if (!target?.isDirectory()) return binds;
  const sbin = path.join(directory, 'sbin');
  await mkdir(sbin, { recursive: true, mode: 0o755 });
  await writeFile(path.join(sbin, 'sudo'), SUDO_SCRIPT, { mode: 0o755 });
  if (!hostUsers) return [...binds, { source: sbin, target: TOOLS_TARGET, readOnly: true }];
  const helper = path.join(sbin, SUDO_HELPER);
  await copyFile(SETPRIV, helper);
  // chown clears the setuid bit, so the mode comes after it.
  await chown(helper, hostUsers.root.uid, hostUsers.root.gid);
  await chmod(helper, 0o4755);
  return [...binds, { source: sbin, target: TOOLS_TARGET, readOnly: true, setuid: true }];
}

/** An /etc/passwd or /etc/group `host` with `entry` (the sandbox's `user`) in place of any line of the same name or id. */
function withUser(host: string, entry: string): string {
  const [name, , id] = entry.split(':');
  const kept = host.split('\n').filter((line) => {
    const fields = line.split(':');
    return line !== '' && fields[0] !== name && fields[2] !== id;
  });
  return [...kept, entry, ''].join('\n');
}
