/**
 * Run by the init once inside the nested namespaces (their id maps written): only now is it
 * `ready` — a command entering earlier could land in the outer namespaces, where root may remount
 * the system read-write, or in a user namespace without maps (`setgid failed`). Then it execs the
 * init with an environment of PATH only and stdio on /dev/null.
 */
const READY_SCRIPT = 'echo "ready $1"; shift; exec env -i "PATH=$PATH" "$@" </dev/null >/dev/null 2>&1';

/**
 * Run by the init once inside a nested user namespace that has further users: no process in it
 * may write a map of more than one line (that takes CAP_SETUID in the parent namespace), so it
 * asks the setup's helper — still root of the outer namespace — through the fifo `$1`, waits for
 * `ok` on `$2`, removes both, then becomes the nested root (outer uid 1, the sandbox identity:
 * `setpriv` clears the setup's groups and its host uid) and runs READY_SCRIPT (`$3`).
 */
const USERS_MAPPED_SCRIPT =
  'echo > "$1"; read -r answer < "$2"; rm -f -- "$1" "$2"; [ "$answer" = ok ] || exit 1; ready=$3; shift 3; exec setpriv --reuid=0 --regid=0 --clear-groups -- /bin/sh -c "$ready" sandbox-ready "$@"';

/**
 * The shell that builds a sandbox's root inside fresh user, mount, PID, IPC, UTS and cgroup
 * namespaces (and a network namespace unless the network is the host's; the cgroup namespace
 * makes /proc/self/cgroup read `/`, not the host's group path). It runs as PID 1 of the new PID
 * namespace, before anything untrusted:
 *
 * - with mapped ids (`ids` = `mapped`) it first prints `map <host pid>` and waits for a line on
 *   stdin: the caller (root on the host) writes its user namespace's maps meanwhile — sandbox
 *   uid/gid 0 is the host's root for this setup only, 1 is the sandbox identity — and the setup
 *   goes on as root with the capabilities `unshare --keep-caps` kept across the exec;
 * - with egress it writes its host pid to fd 3, where the launcher's network helper attaches to
 *   its network namespace, and later waits (at most 10 s) for the helper's default route;
 * - the hostname becomes `hostname` (its own UTS namespace);
 * - a tmpfs becomes the new root, mounted on an empty host directory (`rootMountPoint`);
 * - the system's tools are bound in read-only: /usr, /bin, /sbin, /lib* (symbolic links stay
 *   links), and a short list of /etc entries programs need (users, name resolution, the dynamic
 *   linker, certificates, time zone) — never all of /etc, where a daemon's config may live; with
 *   a `resolver`, /etc/resolv.conf names it instead of binding the host's;
 * - a private /tmp and /dev/shm (tmpfs), a minimal /dev (null, zero, full, random, urandom, tty
 *   bound from the host) and a /proc of the new PID namespace only, where — as container
 *   runtimes do — `sys`, `sysrq-trigger`, `irq`, `bus` and `fs` are read-only and `kcore`,
 *   `keys`, `kallsyms`, `kmsg` and a few more are hidden: without mapped ids root inside is the
 *   caller, who may be the host's uid 0, whom the kernel lets write host-wide sysctls;
 * - a boot id of its own: `/proc/sys/kernel/random/boot_id` reads a random id made by this
 *   setup, as each VM has its own — the host's is a fingerprint of the host that untrusted code
 *   has no need of, and a sandbox started again (a cold boot) reads a new one;
 * - each requested directory or file is bound at its target with the options asked for —
 *   `nodev`, read-write or read-only, and `nosuid` unless the bind is a read-only one of setuid
 *   programs the caller made (later binds may cover /tmp, or a file the system's /etc entries):
 *   a setuid program a command leaves behind raises nobody's privileges inside;
 * - `pivot_root` into it and the old root is detached, so nothing else of the host is reachable
 *   (unlike `chroot`, which root can climb out of), and the new root is made read-only;
 * - the init then moves into a nested user namespace with its own copy of the mount namespace:
 *   mounts made by a more privileged user namespace are locked there, so root inside (commands
 *   enter these nested namespaces) can neither remount the system directories read-write, nor
 *   clear `nosuid`, nor unmount anything to uncover what lies beneath. With mapped ids it first
 *   becomes uid/gid 1 (`setpriv`, which drops every capability of the setup's root), so the nested
 *   namespace's root — what commands are — is the sandbox identity, and the host's root is no
 *   longer anyone inside. With further users (ids `mapped`, `users` not empty) the nested
 *   namespace maps more than its root — `0 1 1`, then `<id> <n> 1` for the n-th user (outer ids
 *   2, 3…, which the caller mapped to their host identities) — and a map of several lines can
 *   only be written by a process with CAP_SETUID in the outer namespace. So the init moves in
 *   still the setup's root, and a helper the setup forked beforehand writes the maps when asked
 *   through a fifo under /dev/shm (USERS_MAPPED_SCRIPT); only then does the init become the
 *   nested root, the sandbox identity. The helper exits once it answered.
 *
 * Cheap to run, as every exec may wait for it: a process per mount made starts under load
 * crawl (about 100 processes took 8 s each with 20 starts at once on 2 cores). So the fixed
 * mounts are listed in three small fstab tables, each mounted by one `mount --all` (relative
 * targets, resolved in the new root; `bind,ro` binds and remounts read-only in one step,
 * util-linux ≥ 2.27), one `mkdir` makes every directory and one `cp -P` copies the symbolic
 * links: about 20 processes in all. Each table is written where the next mounts cover it
 * (`dev/fstab` under /dev, `proc/fstab` under /proc, `dev/shm/fstab` under /dev/shm, with the
 * boot id's file), so none is visible inside, and the covering mounts are locked like the rest. A mount that fails
 * fails `mount --all`, and so the setup (`set -e`).
 *
 * Positional parameters: root mount point, network (`host`, `none` or `egress`), ids (`caller`
 * or `mapped`), hostname, resolver (empty: the host's resolv.conf), the further users' ids
 * inside (space-separated, maybe none), the number of binds,
 * `source target options` per bind (`mount -o` options), then the init's argv. Once built it moves into the nested
 * namespaces, prints `ready <host pid of PID 1>` there (READY_SCRIPT) and execs the init at `/`
 * with an environment of PATH only and stdio on /dev/null. Every value arrives as a
 * parameter, never spliced into the script text (nor into a table: those hold fixed names only).
 */
export const SETUP_SCRIPT = String.raw`set -e
PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
read -r host_pid _ < /proc/self/stat
R="$1"; network="$2"; ids="$3"; name="$4"; resolver="$5"; users="$6"; binds="$7"; shift 7
if [ "$ids" = mapped ]; then echo "map $host_pid"; read -r _; fi
if [ "$network" = egress ]; then echo "$host_pid" >&3; fi
echo "$name" > /proc/sys/kernel/hostname
mount -t tmpfs -o mode=0755 sandbox-root "$R"
cd "$R"
dirs='etc tmp proc dev .old-root'; links=; files=; table=
for d in usr bin sbin lib lib32 lib64 libx32; do
  if [ -L "/$d" ]; then links="$links /$d"
  elif [ -d "/$d" ]; then dirs="$dirs $d"; table="$table
/$d $d none rbind,ro"
  fi
done
for e in passwd group hosts hostname resolv.conf nsswitch.conf host.conf services protocols alternatives ld.so.cache ld.so.conf ld.so.conf.d ssl ca-certificates ca-certificates.conf localtime timezone os-release mime.types; do
  if [ "$e" = resolv.conf ] && [ -n "$resolver" ]; then continue
  elif [ -d "/etc/$e" ] && [ ! -L "/etc/$e" ]; then dirs="$dirs etc/$e"
  elif [ -e "/etc/$e" ]; then files="$files etc/$e"
  else continue
  fi
  table="$table
/etc/$e etc/$e none bind,ro"
done
mkdir $dirs
if [ -n "$links" ]; then cp -P $links .; fi
for f in $files; do : > "$f"; done
if [ -n "$resolver" ]; then echo "nameserver $resolver" > etc/resolv.conf; fi
printf '%s
' "$table" 'sandbox-tmp tmp tmpfs mode=1777' 'sandbox-dev dev tmpfs mode=0755' > dev/fstab
mount --all --internal-only --fstab dev/fstab
table='proc proc proc defaults'
for n in null zero full random urandom tty; do
  : > "dev/$n"; table="$table
/dev/$n dev/$n none bind"
done
mkdir dev/shm
printf '%s
' "$table" > proc/fstab
mount --all --internal-only --fstab proc/fstab
table=
for p in sys sysrq-trigger irq bus fs; do
  if [ -e "proc/$p" ]; then table="$table
/proc/$p proc/$p none bind,ro"; fi
done
read -r boot_id < /proc/sys/kernel/random/uuid
echo "$boot_id" > dev/shm/boot_id
table="$table
dev/shm/boot_id proc/sys/kernel/random/boot_id none bind,ro
sandbox-shm dev/shm tmpfs mode=1777"
for p in kcore keys timer_list sched_debug latency_stats kallsyms kmsg; do
  if [ -f "proc/$p" ]; then table="$table
/dev/null proc/$p none bind"; fi
done
for p in acpi scsi asound driver; do
  if [ -d "proc/$p" ]; then table="$table
sandbox-masked proc/$p tmpfs ro,mode=0555"; fi
done
printf '%s
' "$table" > dev/shm/fstab
mount --all --internal-only --fstab dev/shm/fstab
ln -s /proc/self/fd dev/fd; ln -s /proc/self/fd/0 dev/stdin; ln -s /proc/self/fd/1 dev/stdout; ln -s /proc/self/fd/2 dev/stderr
while [ "$binds" -gt 0 ]; do
  if [ -d "$1" ]; then mkdir -p "$R$2"; else mkdir -p "$R${'${2%/*}'}"; [ -e "$R$2" ] || : > "$R$2"; fi
  mount --bind -o "$3" "$1" "$R$2"; shift 3; binds=$((binds - 1))
done
if [ "$network" != host ]; then ip link set lo up; fi
if [ "$network" = egress ]; then
  routed() { while read -r _ destination _; do [ "$destination" = 00000000 ] && return 0; done < /proc/self/net/route; return 1; }
  waited=0
  until routed; do
    waited=$((waited + 1))
    if [ "$waited" -gt 500 ]; then echo "the network helper did not configure the sandbox's network within 10 s" >&2; exit 1; fi
    sleep 0.02
  done
fi
pivot_root . .old-root; umount -l /.old-root; rmdir /.old-root
mount -o remount,bind,ro /
cd /
if [ "$ids" = mapped ] && [ -n "$users" ]; then
  map='0 1 1'; n=2
  for u in $users; do map="$map
$u $n 1"; n=$((n + 1)); done
  asked=/dev/shm/.sandbox-ids-asked; mapped=/dev/shm/.sandbox-ids-mapped
  mkfifo -m 0600 "$asked" "$mapped"
  (read -r _ < "$asked"; answer=failed; { echo "$map" > /proc/1/uid_map && echo "$map" > /proc/1/gid_map && answer=ok; } || echo "could not map the sandbox's users" >&2; echo "$answer" > "$mapped") &
  exec unshare --user --keep-caps --mount -- /bin/sh -c '${USERS_MAPPED_SCRIPT}' sandbox-users "$asked" "$mapped" '${READY_SCRIPT}' "$host_pid" "$@"
fi
if [ "$ids" = mapped ]; then
  exec setpriv --reuid=1 --regid=1 --clear-groups -- unshare --user --map-root-user --mount -- /bin/sh -c '${READY_SCRIPT}' sandbox-ready "$host_pid" "$@"
fi
exec unshare --user --map-root-user --mount -- /bin/sh -c '${READY_SCRIPT}' sandbox-ready "$host_pid" "$@"
`;


/**
 * PID 1 of a long-lived sandbox: a shell that waits and, being in `wait`, reaps every orphan the
 * namespace's commands leave (background jobs whose shell exited), so none lingers as a zombie.
 * Every 2 s it checks `watched` (the first bound directory; `/` when there is none): once that
 * directory was deleted on the host (link count 0) it exits, so a removed workspace leaves no
 * process behind. When it dies the kernel kills everything else in the PID namespace.
 */
export function holderInit(watched: string): string[] {
  return [
    '/bin/sh',
    '-c',
    'trap "" HUP INT TERM; while [ "$(stat -c %h -- "$1" 2>/dev/null)" != 0 ]; do sleep 2 & wait $!; done',
    'sandbox-init',
    watched,
  ];
}

/**
 * Runs a command inside a sandbox entered with `nsenter --root`: enter `cwd`, take the command's
 * environment from the variable the launcher carried it in (see launcherEnvironment), then exec
 * the rest. It runs inside the sandbox: what the evaluated text could do, the command may anyway.
 */
export const ENTER_SCRIPT = 'cd -- "$1" || exit 126; shift; eval "$RUNTIMECTL_SANDBOX_ENVIRONMENT"; exec "$@"';
