import type { ControllerPlace } from './cgroup-host';
import type { SandboxIdentity, SandboxUser } from './sandbox-identity';
import type { SandboxLimits } from './sandbox-limits';
import type { EgressHelper, SandboxNetwork } from './sandbox-network';
import { ENTER_SCRIPT, SETUP_SCRIPT } from './setup-script';

/**
 * A host directory — or file, shown over the one at `target` (a system file such as
 * /etc/passwd, say) — shown `nodev` and, unless `setuid`, `nosuid` inside the sandbox at
 * `target` (an absolute path).
 */
export interface SandboxBind {
  source: string;
  target: string;
  /** Shown read-only: root inside cannot write it nor remount it writable (its mount is locked). Default read-write. */
  readOnly?: boolean;
  /**
   * Its setuid programs run as their owners inside — a program owned by the sandbox identity
   * runs as root inside, as `sudo` does on a VM. Only for a read-only bind of programs the
   * caller made (root inside cannot change them); its source must lie in a directory host users
   * cannot enter, or they could run those programs as the identity on the host.
   */
  setuid?: boolean;
}

/** What a sandbox shows, who its root is on the host, its network and its limits. */
export interface SandboxSpec {
  /**
   * An existing empty host directory the sandbox's root is mounted on — inside its own mount
   * namespace only, so one directory serves every sandbox. It must not lie inside a bind source.
   */
  rootMountPoint: string;
  binds: readonly SandboxBind[];
  /** See `SandboxNetwork`. `egress` needs `egress`, the helper to carry it. */
  network: SandboxNetwork;
  /** The user-mode network stack for `egress` (see `findEgressHelpers`). */
  egress?: EgressHelper;
  /**
   * The host user and group the sandbox's root is (see `resolveSandboxIdentity`); needs the
   * caller to be root. Absent: the caller's own ids (`unshare --map-root-user`).
   */
  identity?: SandboxIdentity;
  /**
   * Users besides root, each a host identity of its own (see `resolveSandboxUsers`), as a VM has
   * accounts: a command run as one (`NamespaceSandbox.launch`) has no capability, cannot become
   * root nor another user, and meets file permissions as that user. Needs `identity`.
   */
  users?: readonly SandboxUser[];
  /** Limits on every process of the sandbox together; need `cgroups`. */
  limits?: SandboxLimits;
  /** Where the sandbox's cgroup is made (see `findCgroupHost`). */
  cgroups?: readonly ControllerPlace[];
  /** The hostname commands see (its own UTS namespace). Default `sandbox`. */
  hostname?: string;
}

/** What the namespaces of a started sandbox are, as `nsenter` needs to know (kept in its record). */
export interface SandboxNamespaces {
  network: SandboxNetwork;
  /** 2: own IPC, UTS and cgroup namespaces too. Absent in records of sandboxes built before them. */
  layout?: 2;
}

const DEFAULT_HOSTNAME = 'sandbox';

/**
 * The `unshare` arguments that build `spec`'s sandbox in new namespaces and run `init` as its
 * PID 1. With an identity, nothing maps the ids here: the caller writes the maps when the setup
 * asks (`map <pid>`), and `--keep-caps` keeps the setup's capabilities across its exec meanwhile.
 */
export function unshareArgs(spec: SandboxSpec, init: readonly string[], resolver: string | undefined): string[] {
  for (const bind of spec.binds) {
    if (!bind.target.startsWith('/') || !bind.source.startsWith('/')) throw new TypeError('sandbox binds need absolute paths');
  }
  if (spec.network === 'egress' && !spec.egress) throw new TypeError('an egress sandbox needs a network helper');
  checkUsers(spec);
  const hostname = spec.hostname ?? DEFAULT_HOSTNAME;
  if (!/^[A-Za-z0-9][A-Za-z0-9.-]{0,62}$/.test(hostname)) throw new TypeError('a sandbox hostname is letters, digits, "." and "-" (at most 63)');
  return [
    '--user',
    ...(spec.identity ? ['--keep-caps'] : ['--map-root-user']),
    '--mount',
    '--propagation',
    'private',
    '--pid',
    '--ipc',
    '--uts',
    '--cgroup',
    '--fork',
    '--kill-child',
    ...(spec.network === 'host' ? [] : ['--net']),
    '--',
    '/bin/sh',
    '-c',
    SETUP_SCRIPT,
    'sandbox-setup',
    spec.rootMountPoint,
    spec.network,
    spec.identity ? 'mapped' : 'caller',
    hostname,
    resolver ?? '',
    (spec.users ?? []).map((user) => String(user.id)).join(' '),
    String(spec.binds.length),
    ...spec.binds.flatMap((bind) => [bind.source, bind.target, mountOptions(bind)]),
    ...init,
  ];
}

/** How `bind` is mounted: `nodev` always, `nosuid` unless asked, read-only or read-write. */
function mountOptions(bind: SandboxBind): string {
  if (bind.setuid && !bind.readOnly) throw new TypeError('a setuid bind must be read-only');
  return [bind.readOnly ? 'ro' : 'rw', ...(bind.setuid ? [] : ['nosuid']), 'nodev'].join(',');
}

/** Users need a mapped root, ids of their own inside and on the host, and whole ids. */
function checkUsers(spec: SandboxSpec): void {
  const users = spec.users ?? [];
  if (users.length === 0) return;
  if (!spec.identity) throw new TypeError('sandbox users need a sandbox identity (the caller is root)');
  const inside = new Set(users.map((user) => user.id));
  const hosts = new Set([spec.identity.uid, ...users.map((user) => user.identity.uid)]);
  const groups = new Set([spec.identity.gid, ...users.map((user) => user.identity.gid)]);
  if (!users.every((user) => Number.isSafeInteger(user.id) && user.id > 0 && user.id < 65_534)) throw new TypeError('a sandbox user\'s id inside is between 1 and 65533');
  if (inside.size !== users.length || hosts.size !== users.length + 1 || groups.size !== users.length + 1) throw new TypeError('every sandbox user needs ids of its own, inside and on the host');
}

/**
 * The `nsenter` arguments that run `command` at `cwd` inside the sandbox whose PID 1 is the
 * host process `holderPid`: its user, mount, PID, IPC, UTS and cgroup namespaces (and network namespace
 * unless it has the host's) and its root. nsenter becomes root of the user namespace, which is
 * the sandbox identity on the host when there is one — or, with `user`, that user (its uid and
 * gid, no supplementary groups, no capability). The command's parent is outside the PID
 * namespace (its PPID reads 0), so nothing of the caller is visible in /proc.
 */
export function nsenterArgs(holderPid: number, namespaces: SandboxNamespaces, cwd: string, command: readonly string[], user?: number): string[] {
  return [
    '--target',
    String(holderPid),
    ...(user === undefined ? [] : ['--setuid', String(user), '--setgid', String(user)]),
    '--user',
    '--mount',
    '--pid',
    ...(namespaces.layout === 2 ? ['--ipc', '--uts', '--cgroup'] : []),
    ...(namespaces.network === 'host' ? [] : ['--net']),
    '--root',
    '--',
    '/bin/sh',
    '-c',
    ENTER_SCRIPT,
    'sandbox-enter',
    cwd,
    ...command,
  ];
}
