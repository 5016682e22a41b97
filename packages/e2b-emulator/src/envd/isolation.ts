/**
 * How commands see the sandbox's files. Preferred: each E2B sandbox's commands run in one
 * namespace sandbox of its own user, mount, PID, IPC, UTS and network namespaces (`@runtimectl/namespace-sandbox`,
 * shared with the local provider; see `SandboxNamespace`): a read-only view of the host's system tools, `<sandboxDir>/home/user` bound on
 * `/home/user` and `<sandboxDir>/tmp` on `/tmp`, and a /proc of its own — so absolute paths in
 * commands reach the sandbox's own files, and nothing of the emulator's process (its
 * environment, its other files) is visible. When that is not permitted (no unshare, no user
 * namespaces), commands run with their cwd mapped into the sandbox directory and HOME set to
 * it, and absolute `/home/user` paths reach the host instead.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import {
  decideSandboxFeatures,
  resolveSandboxIdentity,
  resolveSandboxUsers,
  type FeatureRequest,
  type ProbeSpec,
  type SandboxBind,
  type SandboxLimits,
  type SandboxNetwork,
  type SandboxSpec,
} from '@runtimectl/namespace-sandbox';
import { USER_ID_INSIDE, type HostUsers } from '../sandbox/sandbox-owners.js';
import { installSandboxTools } from '../sandbox/sandbox-tools.js';

export type IsolationMode = 'mount-namespace' | 'directory';

export interface IsolationProbe {
  mode: IsolationMode;
  /** Why the namespaces are not used, when they are not. */
  reason?: string;
  /** With namespaces: the network, helper, limits and cgroups every sandbox's namespace gets. */
  features?: ProbeSpec;
  /** Why not the network asked for (egress without slirp4netns or pasta is none). */
  networkReason?: string;
  /** Why no limits, when some were asked for. */
  limitsReason?: string;
  /** With namespaces: what every sandbox shows read-only beside its own files (`sudo`, /etc/passwd; see installSandboxTools). */
  tools?: SandboxBind[];
  /** With namespaces, as root: the host identities of `user` and `root`, two (see SandboxOwners). */
  users?: HostUsers;
  /** Why `user` and `root` are one identity, when they are. */
  usersReason?: string;
}

/** What every sandbox's namespace gets beside its own directories, and who owns its files: what the probe decided. */
export type NamespaceFeatures = Pick<IsolationProbe, 'features' | 'tools' | 'users'>;

/**
 * What sandboxes' namespaces should have. Default network `egress`: as on E2B, commands reach
 * the internet but not the host's loopback (where this emulator and its callers listen); none
 * where no user-mode network stack works, never the host's unless asked. Default no limits (an
 * E2B sandbox is a VM of its own size); with limits, a fork bomb or a memory hog in one
 * sandbox is held there, as a VM holds it.
 */
export interface IsolationFeatures {
  network?: SandboxNetwork;
  limits?: SandboxLimits;
}

/** `auto` probes; the others force a mode (forcing `mount-namespace` fails fast if it cannot work). */
export type IsolationPreference = 'auto' | IsolationMode;

/** The empty directory, under the emulator root, each command's sandbox root is mounted on (in its own namespace). */
const NAMESPACE_ROOT = 'namespace-root';

/**
 * The namespace sandbox of the E2B sandbox in `sandboxDir`: its home/user at /home/user, its tmp
 * at /tmp, the shared tools read-only, with `features` (the network, limits) — no network at all
 * when the sandbox was created with `allowInternetAccess: false`, as on E2B.
 */
export function namespaceSpec(emulatorRoot: string, sandboxDir: string, namespaces: NamespaceFeatures = {}, internet = true): SandboxSpec {
  const { egress, ...rest } = namespaces.features ?? ({ network: 'none' } satisfies ProbeSpec);
  return {
    ...rest,
    ...(internet && egress ? { egress } : {}),
    network: internet ? rest.network : 'none',
    rootMountPoint: path.join(emulatorRoot, NAMESPACE_ROOT),
    binds: [
      { source: path.join(sandboxDir, 'home', 'user'), target: '/home/user' },
      // root's home, for commands run as `root` (their default cwd and HOME, as in envd).
      { source: path.join(sandboxDir, 'root'), target: '/root' },
      { source: path.join(sandboxDir, 'tmp'), target: '/tmp' },
      ...(namespaces.tools ?? []),
    ],
  };
}

/** Decides the isolation mode, and what sandboxes' namespaces get, once, at emulator start. */
export async function probeIsolation(root: string, preference: IsolationPreference, wanted: IsolationFeatures = {}): Promise<IsolationProbe> {
  if (preference === 'directory') return { mode: 'directory', reason: 'forced by the isolation option' };
  await mkdir(path.join(root, NAMESPACE_ROOT), { recursive: true });
  const request: FeatureRequest = { network: wanted.network ?? 'egress', ...(wanted.limits ? { limits: wanted.limits } : {}) };
  const scratch = path.join(root, 'isolation-probe');
  const two = twoIdentities();
  let usersReason = 'reason' in two ? two.reason : undefined;
  let users = 'users' in two ? two.users : undefined;
  let decided = users ? await decideSandboxFeatures({ ...request, identity: users.root, users: [{ id: USER_ID_INSIDE, identity: users.user }] }, scratch) : undefined;
  if (decided && !decided.available) {
    usersReason = `two identities did not work (${decided.reason})`;
    users = undefined;
  }
  if (!decided?.available) decided = await decideSandboxFeatures(request, scratch);
  if (decided.available) {
    const tools = await installSandboxTools(root, users);
    return {
      mode: 'mount-namespace',
      features: decided.spec,
      tools,
      ...(users ? { users } : usersReason ? { usersReason } : {}),
      ...(decided.networkReason ? { networkReason: decided.networkReason } : {}),
      ...(decided.limitsReason ? { limitsReason: decided.limitsReason } : {}),
    };
  }
  if (preference === 'mount-namespace') throw new Error(`mount-namespace isolation is not available: ${decided.reason}`);
  return { mode: 'directory', reason: decided.reason };
}

/**
 * The host identities `root` and `user` get when the emulator runs as root: the namespace
 * sandbox's default identity (2147000000) and the id 1000 above it — so a file `user` makes on
 * E2B's uid 1000 is host uid 2147001000 here, nobody's on the host. Not root: why not.
 */
function twoIdentities(): { users: HostUsers } | { reason: string } {
  const resolved = resolveSandboxIdentity('auto');
  if (!resolved.identity) return { reason: resolved.reason };
  try {
    const [user] = resolveSandboxUsers(resolved.identity, [USER_ID_INSIDE]);
    return { users: { root: resolved.identity, user: user!.identity } };
  } catch (error) {
    return { reason: (error as Error).message };
  }
}
