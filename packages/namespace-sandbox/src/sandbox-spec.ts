import { ENTER_SCRIPT, SETUP_SCRIPT } from './setup-script';

/** A host directory shown read-write inside the sandbox at `target` (an absolute path). */
export interface SandboxBind {
  source: string;
  target: string;
}

/** What a sandbox shows and whether it has the host's network. */
export interface SandboxSpec {
  /**
   * An existing empty host directory the sandbox's root is mounted on — inside its own mount
   * namespace only, so one directory serves every sandbox. It must not lie inside a bind source.
   */
  rootMountPoint: string;
  binds: readonly SandboxBind[];
  /** true: the host's network (and its loopback services); false: its own, loopback only. */
  network: boolean;
}

/** The `unshare` arguments that build `spec`'s sandbox in new namespaces and run `init` as its PID 1. */
export function unshareArgs(spec: SandboxSpec, init: readonly string[]): string[] {
  for (const bind of spec.binds) {
    if (!bind.target.startsWith('/') || !bind.source.startsWith('/')) throw new TypeError('sandbox binds need absolute paths');
  }
  return [
    '--user',
    '--map-root-user',
    '--mount',
    '--propagation',
    'private',
    '--pid',
    '--fork',
    '--kill-child',
    ...(spec.network ? [] : ['--net']),
    '--',
    '/bin/sh',
    '-c',
    SETUP_SCRIPT,
    'sandbox-setup',
    spec.rootMountPoint,
    spec.network ? 'on' : 'off',
    String(spec.binds.length),
    ...spec.binds.flatMap((bind) => [bind.source, bind.target]),
    ...init,
  ];
}

/**
 * The `nsenter` arguments that run `command` at `cwd` inside the sandbox whose PID 1 is the
 * host process `holderPid`: its user, mount and PID namespaces (and network namespace when it
 * has its own) and its root. The command's parent is outside the PID namespace (its PPID reads 0),
 * so nothing of the caller is visible in /proc.
 */
export function nsenterArgs(holderPid: number, network: boolean, cwd: string, command: readonly string[]): string[] {
  return [
    '--target',
    String(holderPid),
    '--user',
    '--mount',
    '--pid',
    ...(network ? [] : ['--net']),
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
