/**
 * How commands see the sandbox's files. Preferred: a private mount namespace per command
 * (`unshare --mount --propagation private`) where `/home` is a tmpfs, `<sandboxDir>/home/user`
 * is bind-mounted on `/home/user` and `<sandboxDir>/tmp` on `/tmp`, so absolute paths in
 * commands reach the sandbox's own files. When that is not permitted (not root, no
 * unshare), commands run with their cwd mapped into the sandbox directory and HOME set to
 * it, and absolute `/home/user` paths reach the host instead.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

export type IsolationMode = 'mount-namespace' | 'directory';

export interface IsolationProbe {
  mode: IsolationMode;
  /** Why the mount namespace is not used, when it is not. */
  reason?: string;
}

/** `auto` probes; the others force a mode (forcing `mount-namespace` fails fast if it cannot work). */
export type IsolationPreference = 'auto' | IsolationMode;

const PROBE_TIMEOUT_MS = 5_000;

/**
 * The shell run inside the new mount namespace before the command: mount the sandbox's home
 * and tmp, enter the cwd, exec the command. `/tmp` is mounted last because the sandbox
 * directory itself usually lives under the host's /tmp.
 */
export const NAMESPACE_SETUP_SCRIPT = [
  'set -e',
  'mount -t tmpfs -o mode=0755 tmpfs /home',
  'mkdir -p /home/user',
  'mount --bind "$1/home/user" /home/user',
  'mount --bind "$1/tmp" /tmp',
  'cd -- "$2"',
  'shift 2',
  'exec "$@"',
].join('\n');

/** The argv that runs `command` in a mount namespace showing `sandboxDir` at /home/user and /tmp. */
export function namespacedArgv(sandboxDir: string, cwd: string, command: string[]): string[] {
  return ['--mount', '--propagation', 'private', '--', '/bin/sh', '-c', NAMESPACE_SETUP_SCRIPT, 'sh', sandboxDir, cwd, ...command];
}

/** Decides the isolation mode once, at emulator start. */
export async function probeIsolation(root: string, preference: IsolationPreference): Promise<IsolationProbe> {
  if (preference === 'directory') return { mode: 'directory', reason: 'forced by the isolation option' };
  const failure = await tryNamespace(root);
  if (failure === undefined) return { mode: 'mount-namespace' };
  if (preference === 'mount-namespace') throw new Error(`mount-namespace isolation is not available: ${failure}`);
  return { mode: 'directory', reason: failure };
}

/** Runs the real setup script against a throwaway sandbox; undefined when it worked. */
async function tryNamespace(root: string): Promise<string | undefined> {
  await mkdir(root, { recursive: true });
  const probeDir = await mkdtemp(path.join(root, 'isolation-probe-'));
  try {
    await mkdir(path.join(probeDir, 'home', 'user'), { recursive: true });
    await mkdir(path.join(probeDir, 'tmp'), { recursive: true });
    await writeFile(path.join(probeDir, 'home', 'user', 'probe.txt'), 'ok');
    await writeFile(path.join(probeDir, 'tmp', 'probe.txt'), 'ok');
    const argv = namespacedArgv(probeDir, '/home/user', ['/bin/sh', '-c', 'test -f /home/user/probe.txt && test -f /tmp/probe.txt']);
    return await new Promise<string | undefined>((resolve) => {
      const child = spawn('unshare', argv, { stdio: ['ignore', 'ignore', 'pipe'], timeout: PROBE_TIMEOUT_MS });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
      });
      child.on('error', (error) => resolve(`unshare could not be started: ${error.message}`));
      child.on('close', (code) => {
        resolve(code === 0 ? undefined : `unshare probe exited with ${code}: ${stderr.trim() || 'no output'}`);
      });
    });
  } finally {
    await rm(probeDir, { recursive: true, force: true });
  }
}
