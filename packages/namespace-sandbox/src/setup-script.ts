/**
 * The shell that builds a sandbox's root inside fresh user, mount and PID namespaces (it runs as
 * PID 1 of the new PID namespace, root of the new user namespace, before anything untrusted):
 *
 * - a tmpfs becomes the new root, mounted on an empty host directory (`rootMountPoint`);
 * - the system's tools are bound in read-only: /usr, /bin, /sbin, /lib* (symbolic links stay
 *   links), and a short list of /etc entries programs need (users, name resolution, the dynamic
 *   linker, certificates, time zone) — never all of /etc, where a daemon's config may live;
 * - a private /tmp and /dev/shm (tmpfs), a minimal /dev (null, zero, full, random, urandom, tty
 *   bound from the host) and a /proc of the new PID namespace only, where — as container
 *   runtimes do — `sys`, `sysrq-trigger`, `irq`, `bus` and `fs` are read-only and `kcore`,
 *   `keys`, `kallsyms`, `kmsg` and a few more are hidden: root inside is the host's uid 0
 *   (`--map-root-user` as root), whom the kernel lets write host-wide sysctls through them;
 * - each requested directory is bound read-write at its target (later binds may cover /tmp);
 * - `pivot_root` into it and the old root is detached, so nothing else of the host is reachable
 *   (unlike `chroot`, which root can climb out of), and the new root is made read-only;
 * - the init then moves into a nested user namespace with its own copy of the mount namespace:
 *   mounts made by a more privileged user namespace are locked there, so root inside (commands
 *   enter these nested namespaces) can neither remount the system directories read-write nor
 *   unmount anything to uncover what lies beneath.
 *
 * Positional parameters: root mount point, network (`on`: the host's network; `off`: a new
 * network namespace whose loopback is brought up), the number of binds, `source target` per
 * bind, then the init's argv. Once built it prints `ready <host pid of PID 1>` and execs the
 * init at `/` with an environment of PATH only and stdio on /dev/null. Every value arrives as a
 * parameter, never spliced into the script text.
 */
export const SETUP_SCRIPT = String.raw`set -e
PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
read -r host_pid _ < /proc/self/stat
R="$1"; network="$2"; binds="$3"; shift 3
mount -t tmpfs -o mode=0755 sandbox-root "$R"
for d in usr bin sbin lib lib32 lib64 libx32; do
  if [ -L "/$d" ]; then ln -s "$(readlink "/$d")" "$R/$d"
  elif [ -d "/$d" ]; then mkdir "$R/$d"; mount --rbind "/$d" "$R/$d"; mount -o remount,bind,ro "$R/$d"
  fi
done
mkdir "$R/etc"
for e in passwd group hosts hostname resolv.conf nsswitch.conf host.conf services protocols alternatives ld.so.cache ld.so.conf ld.so.conf.d ssl ca-certificates ca-certificates.conf localtime timezone os-release mime.types; do
  if [ -d "/etc/$e" ] && [ ! -L "/etc/$e" ]; then mkdir "$R/etc/$e"
  elif [ -e "/etc/$e" ]; then : > "$R/etc/$e"
  else continue
  fi
  mount --bind "/etc/$e" "$R/etc/$e"; mount -o remount,bind,ro "$R/etc/$e"
done
mkdir "$R/tmp" "$R/proc" "$R/dev"
mount -t tmpfs -o mode=1777 sandbox-tmp "$R/tmp"
mount -t tmpfs -o mode=0755 sandbox-dev "$R/dev"
for n in null zero full random urandom tty; do : > "$R/dev/$n"; mount --bind "/dev/$n" "$R/dev/$n"; done
ln -s /proc/self/fd "$R/dev/fd"; ln -s /proc/self/fd/0 "$R/dev/stdin"; ln -s /proc/self/fd/1 "$R/dev/stdout"; ln -s /proc/self/fd/2 "$R/dev/stderr"
mkdir "$R/dev/shm"; mount -t tmpfs -o mode=1777 sandbox-shm "$R/dev/shm"
while [ "$binds" -gt 0 ]; do
  mkdir -p "$R$2"; mount --bind "$1" "$R$2"; shift 2; binds=$((binds - 1))
done
mount -t proc proc "$R/proc"
for p in sys sysrq-trigger irq bus fs; do
  if [ -e "$R/proc/$p" ]; then mount --bind "$R/proc/$p" "$R/proc/$p"; mount -o remount,bind,ro "$R/proc/$p"; fi
done
for p in kcore keys timer_list sched_debug latency_stats kallsyms kmsg; do
  if [ -f "$R/proc/$p" ]; then mount --bind /dev/null "$R/proc/$p"; fi
done
for p in acpi scsi asound driver; do
  if [ -d "$R/proc/$p" ]; then mount -t tmpfs -o ro,mode=0555 sandbox-masked "$R/proc/$p"; fi
done
if [ "$network" = off ]; then ip link set lo up; fi
cd "$R"; mkdir .old-root; pivot_root . .old-root; umount -l /.old-root; rmdir /.old-root
mount -o remount,bind,ro /
cd /
echo "ready $host_pid"
exec unshare --user --map-root-user --mount -- env -i "PATH=$PATH" "$@" </dev/null >/dev/null 2>&1
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

/** Runs a command inside a sandbox entered with `nsenter --root`: enter `cwd`, then exec the rest. */
export const ENTER_SCRIPT = 'cd -- "$1" || exit 126; shift; exec "$@"';
