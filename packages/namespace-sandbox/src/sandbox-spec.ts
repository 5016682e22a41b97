import type { ControllerPlace } from './cgroup-host';
import type { SandboxIdentity } from './sandbox-identity';
import type { SandboxLimits } from './sandbox-limits';
import type { EgressHelper, SandboxNetwork } from './sandbox-network';
import { ENTER_SCRIPT, SETUP_SCRIPT } from './setup-script';

/** A host directory shown (`nosuid`, `nodev`) inside the sandbox at `target` (an absolute path). */
export interface SandboxBind {
  source: string;
  target: string;
  /** Shown read-only: root inside cannot write it nor remount it writable (its mount is locked). Default read-write. */
  readOnly?: boolean;
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
    String(spec.binds.length),
    ...spec.binds.flatMap((bind) => [bind.source, bind.target, bind.readOnly ? 'ro' : 'rw']),
    ...init,
  ];
}

/**
 * The `nsenter` arguments that run `command` at `cwd` inside the sandbox whose PID 1 is the
 * host process `holderPid`: its user, mount, PID, IPC, UTS and cgroup namespaces (and network namespace
 * unless it has the host's) and its root. nsenter becomes root of the user namespace, which is
 * the sandbox identity on the host when there is one. The command's parent is outside the PID
 * namespace (its PPID reads 0), so nothing of the caller is visible in /proc.
 */
export function nsenterArgs(holderPid: number, namespaces: SandboxNamespaces, cwd: string, command: readonly string[]): string[] {
  return [
    '--target',
    String(holderPid),
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
