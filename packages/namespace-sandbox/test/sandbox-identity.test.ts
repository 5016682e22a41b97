import { execFile } from 'node:child_process';
import { chmod, chown, lstat, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_ID, NamespaceSandbox, probeNamespaceSandbox, resolveSandboxIdentity, type SandboxIdentity } from '../src/index';

const execFileAsync = promisify(execFile);
const asRoot = process.getuid?.() === 0;
const scratch = await mkdtemp(join(tmpdir(), 'namespace-sandbox-identity-'));
const identity: SandboxIdentity = { uid: DEFAULT_SANDBOX_ID + 7, gid: DEFAULT_SANDBOX_ID + 7 };
const probe = asRoot ? await probeNamespaceSandbox(join(scratch, 'probe'), { network: 'none', identity }) : { available: false as const, reason: 'needs root' };
afterAll(() => rm(scratch, { recursive: true, force: true }));

async function sandboxWithWorkspace(): Promise<{ sandbox: NamespaceSandbox; workspace: string }> {
  const base = await mkdtemp(join(scratch, 'case-'));
  const workspace = join(base, 'workspace');
  await mkdir(workspace);
  await mkdir(join(base, 'root'));
  await chown(workspace, identity.uid, identity.gid);
  const sandbox = await NamespaceSandbox.start({ rootMountPoint: join(base, 'root'), binds: [{ source: workspace, target: '/home/user/workspace' }], network: 'none', identity });
  return { sandbox, workspace };
}

async function inside(sandbox: NamespaceSandbox, script: string): Promise<string> {
  const { file, args, env } = sandbox.launch('/home/user/workspace', ['/bin/sh', '-c', script], { PATH: '/usr/bin:/bin' });
  const { stdout } = await execFileAsync(file, args, { timeout: 20_000, env });
  return stdout;
}

describe('resolving the host identity of sandboxes', () => {
  it('auto, for a caller that is not root, is the caller\'s own ids, with the reason', () => {
    if (asRoot) return;
    expect(resolveSandboxIdentity('auto')).toMatchObject({ identity: undefined, reason: expect.stringMatching(/not running as root/) });
  });

  it.skipIf(!asRoot)('auto, as root, picks the default id when no user, group or subordinate range has it', async () => {
    const etc = await mkdtemp(join(scratch, 'etc-'));
    await writeFile(join(etc, 'passwd'), 'root:x:0:0::/root:/bin/sh\n');
    expect(resolveSandboxIdentity('auto', etc)).toEqual({ identity: { uid: DEFAULT_SANDBOX_ID, gid: DEFAULT_SANDBOX_ID } });
    await writeFile(join(etc, 'subuid'), `containers:${DEFAULT_SANDBOX_ID - 10}:65536\n`);
    expect(resolveSandboxIdentity('auto', etc)).toMatchObject({ identity: undefined, reason: expect.stringMatching(/containers's subordinate user ids/) });
  });

  it.skipIf(!asRoot)('explicit ids that belong to a user or group, or are 0, are refused', async () => {
    const etc = await mkdtemp(join(scratch, 'etc-'));
    await writeFile(join(etc, 'passwd'), 'app:x:5000:5000::/home/app:/bin/sh\n');
    await writeFile(join(etc, 'group'), 'staff:x:6000:\n');
    expect(() => resolveSandboxIdentity({ uid: 5000, gid: 7000 }, etc)).toThrow(/5000 is user app's/);
    expect(() => resolveSandboxIdentity({ uid: 7000, gid: 6000 }, etc)).toThrow(/6000 is group staff's/);
    expect(() => resolveSandboxIdentity({ uid: 0, gid: 7000 }, etc)).toThrow(TypeError);
    expect(resolveSandboxIdentity({ uid: 7000, gid: 7000 }, etc)).toEqual({ identity: { uid: 7000, gid: 7000 } });
  });
});

describe.skipIf(!probe.available)('a sandbox with a host identity (as root)', () => {
  it('is root inside, and that root is the identity on the host: files it makes belong to it', async () => {
    const { sandbox, workspace } = await sandboxWithWorkspace();
    try {
      expect(await inside(sandbox, 'id -u; id -g; echo x > made; mkdir dir')).toBe('0\n0\n');
      for (const name of ['made', 'dir']) expect(await lstat(join(workspace, name))).toMatchObject({ uid: identity.uid, gid: identity.gid });
    } finally {
      await sandbox.kill(5_000);
    }
  });

  it('a setuid shell it copies runs as the identity for a host user, never as root; inside, nosuid makes it nothing', async () => {
    const { sandbox, workspace } = await sandboxWithWorkspace();
    try {
      await inside(sandbox, 'cp /bin/dash s && chmod 4755 s');
      expect((await lstat(join(workspace, 's'))).mode & 0o4000).toBe(0o4000);
      await chmod(join(workspace, '..'), 0o755);
      for (let at = scratch; at !== '/'; at = join(at, '..')) await chmod(at, (await lstat(at)).mode | 0o711);
      const { stdout } = await execFileAsync('su', ['nobody', '-s', '/bin/sh', '-c', `${join(workspace, 's')} -p -c 'id -u'`]);
      expect(Number(stdout.trim())).toBe(identity.uid);
      expect(await inside(sandbox, "awk '$5 == \"/home/user/workspace\" { print $6 }' /proc/self/mountinfo")).toMatch(/nosuid,nodev/);
    } finally {
      await sandbox.kill(5_000);
    }
  });

  it('can chown only to itself: the host\'s root and users are no id inside', async () => {
    const { sandbox } = await sandboxWithWorkspace();
    try {
      // One id is mapped: root inside is the outer namespace's uid 1, the identity (its uid_map line reads "0 1 1").
      const script = 'touch f; chown 0:0 f && echo own; chown 1 f 2>/dev/null || echo no-1; chown 65534 f 2>/dev/null || echo no-nobody; cat /proc/self/uid_map';
      expect(await inside(sandbox, script)).toMatch(/^own\nno-1\nno-nobody\n\s+0\s+1\s+1\n$/);
    } finally {
      await sandbox.kill(5_000);
    }
  });
});
