import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * A sandbox's network. `none`: its own network namespace with only `lo`. `egress`: its own
 * namespace, with outbound connections carried by a user-mode network stack (slirp4netns or
 * pasta) running on the host — the host's loopback (127.0.0.1 and the stack's gateway address)
 * is refused, and nothing the sandbox binds is forwarded to the host. `host`: the host's network
 * itself, loopback services included.
 */
export type SandboxNetwork = 'none' | 'egress' | 'host';

/** A user-mode network stack found on this machine. */
export interface EgressHelper {
  name: 'slirp4netns' | 'pasta';
  path: string;
}

/** slirp4netns's built-in DNS forwarder inside the namespace (its default 10.0.2.0/24 network). */
const SLIRP_RESOLVER = '10.0.2.3';

function onPath(name: string, path: string): string | undefined {
  for (const directory of path.split(delimiter)) {
    if (!directory) continue;
    const candidate = join(directory, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

/**
 * The egress helpers found on `path` (default this process's PATH), best first. As root:
 * slirp4netns (it opens the namespace's tap device as root, then drops its capabilities into an
 * empty mount namespace and a seccomp filter), then pasta (which runs as the sandbox identity
 * and needs /dev/net/tun open to it, as most distributions have it: 0666). Otherwise pasta only
 * (slirp4netns would need the sandbox's user namespace, which this package does not hand it).
 */
export function findEgressHelpers(path = process.env.PATH ?? ''): EgressHelper[] {
  const root = process.getuid?.() === 0;
  const names: EgressHelper['name'][] = root ? ['slirp4netns', 'pasta'] : ['pasta'];
  return names.flatMap((name) => {
    const found = onPath(name, path);
    return found ? [{ name, path: found }] : [];
  });
}

/**
 * The helper's argv, `{pid}` standing for the host pid of the sandbox's init (the launcher puts
 * it in): every port forward off in both directions, the host's loopback unreachable. `runAs`:
 * pasta drops to these ids (it refuses to stay root).
 */
export function egressArgv(helper: EgressHelper, runAs: { uid: number; gid: number } | undefined): string[] {
  if (helper.name === 'slirp4netns') {
    return [helper.path, '--configure', '--mtu=65520', '--disable-host-loopback', '--enable-sandbox', '--enable-seccomp', '{pid}', 'tap0'];
  }
  return [
    helper.path,
    '--config-net',
    '--quiet',
    '--foreground',
    '--no-map-gw',
    '--tcp-ports', 'none',
    '--udp-ports', 'none',
    '--tcp-ns', 'none',
    '--udp-ns', 'none',
    ...(runAs ? ['--runas', `${runAs.uid}:${runAs.gid}`] : []),
    '{pid}',
  ];
}

/** The resolver the sandbox's /etc/resolv.conf names with `helper` (undefined: the host's file as it is). */
export function egressResolver(helper: EgressHelper): string | undefined {
  return helper.name === 'slirp4netns' ? SLIRP_RESOLVER : undefined;
}
