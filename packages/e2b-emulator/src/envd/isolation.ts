/**
 * How commands see the sandbox's files. Preferred: each E2B sandbox's commands run in one
 * namespace sandbox of its own user, mount and PID namespaces (`@runtimectl/namespace-sandbox`,
 * shared with the local provider; see `SandboxNamespace`): a read-only view of the host's system tools, `<sandboxDir>/home/user` bound on
 * `/home/user` and `<sandboxDir>/tmp` on `/tmp`, and a /proc of its own — so absolute paths in
 * commands reach the sandbox's own files, and nothing of the emulator's process (its
 * environment, its other files) is visible. When that is not permitted (no unshare, no user
 * namespaces), commands run with their cwd mapped into the sandbox directory and HOME set to
 * it, and absolute `/home/user` paths reach the host instead.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { probeNamespaceSandbox, type SandboxSpec } from '@runtimectl/namespace-sandbox';

export type IsolationMode = 'mount-namespace' | 'directory';

export interface IsolationProbe {
  mode: IsolationMode;
  /** Why the namespaces are not used, when they are not. */
  reason?: string;
}

/** `auto` probes; the others force a mode (forcing `mount-namespace` fails fast if it cannot work). */
export type IsolationPreference = 'auto' | IsolationMode;

/** The empty directory, under the emulator root, each command's sandbox root is mounted on (in its own namespace). */
const NAMESPACE_ROOT = 'namespace-root';

/** The namespace sandbox of the E2B sandbox in `sandboxDir`: its home/user at /home/user, its tmp at /tmp. */
export function namespaceSpec(emulatorRoot: string, sandboxDir: string): SandboxSpec {
  return {
    rootMountPoint: path.join(emulatorRoot, NAMESPACE_ROOT),
    binds: [
      { source: path.join(sandboxDir, 'home', 'user'), target: '/home/user' },
      { source: path.join(sandboxDir, 'tmp'), target: '/tmp' },
    ],
    network: 'host',
  };
}

/** Decides the isolation mode once, at emulator start. */
export async function probeIsolation(root: string, preference: IsolationPreference): Promise<IsolationProbe> {
  if (preference === 'directory') return { mode: 'directory', reason: 'forced by the isolation option' };
  await mkdir(path.join(root, NAMESPACE_ROOT), { recursive: true });
  const probe = await probeNamespaceSandbox(path.join(root, 'isolation-probe'), { network: 'host' });
  if (probe.available) return { mode: 'mount-namespace' };
  if (preference === 'mount-namespace') throw new Error(`mount-namespace isolation is not available: ${probe.reason}`);
  return { mode: 'directory', reason: probe.reason };
}
