import { execFile } from 'node:child_process';
import { chmod, chown, copyFile, lstat, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_ID, HolderFile, NamespaceSandbox, probeNamespaceSandbox, resolveSandboxIdentity, resolveSandboxUsers, type SandboxBind, type SandboxIdentity, type SandboxUser } from '../src/index';

const execFileAsync = promisify(execFile);
const asRoot = process.getuid?.() === 0;
const scratch = await mkdtemp(join(tmpdir(), 'namespace-sandbox-identity-'));
const identity: SandboxIdentity = { uid: DEFAULT_SANDBOX_ID + 7, gid: DEFAULT_SANDBOX_ID + 7 };
const probe = asRoot ? await probeNamespaceSandbox(join(scratch, 'probe'), { network: 'none', identity }) : { available: false as const, reason: 'needs root' };
afterAll(() => rm(scratch, { recursive: true, force: true }));

async function sandboxWithWorkspace(users?: SandboxUser[], extra: SandboxBind[] = []): Promise<{ sandbox: NamespaceSandbox; workspace: string }> {
  const base = await mkdtemp(join(scratch, 'case-'));
  const workspace = join(base, 'workspace');
  await mkdir(workspace);
  await mkdir(join(base, 'root'));
  await chown(workspace, identity.uid, identity.gid);
  const sandbox = await NamespaceSandbox.start({ rootMountPoint: join(base, 'root'), binds: [{ source: workspace, target: '/home/user/workspace' }, ...extra], network: 'none', identity, ...(users ? { users } : {}) });
  return { sandbox, workspace };
}

async function inside(sandbox: NamespaceSandbox, script: string, user?: number): Promise<string> {
  const { file, args, env } = sandbox.launch('/home/user/workspace', ['/bin/sh', '-c', script], { PATH: '/usr/bin:/bin' }, user);
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

  it('a sandbox user\'s host ids lie above its root\'s, as in a subordinate range; taken, 0 or repeated ids are refused', async () => {
    const etc = await mkdtemp(join(scratch, 'etc-'));
    await writeFile(join(etc, 'passwd'), 'app:x:8000:8000::/home/app:/bin/sh\n');
    expect(resolveSandboxUsers({ uid: 5000, gid: 6000 }, [1000, 1001], etc)).toEqual([
      { id: 1000, identity: { uid: 6000, gid: 7000 } },
      { id: 1001, identity: { uid: 6001, gid: 7001 } },
    ]);
    expect(() => resolveSandboxUsers({ uid: 7000, gid: 7000 }, [1000], etc)).toThrow(/sandbox user 1000: id 8000 is user app's/);
    expect(() => resolveSandboxUsers({ uid: 5000, gid: 5000 }, [0], etc)).toThrow(TypeError);
    expect(() => resolveSandboxUsers({ uid: 5000, gid: 5000 }, [65534], etc)).toThrow(TypeError);
    expect(() => resolveSandboxUsers({ uid: 5000, gid: 5000 }, [1000, 1000], etc)).toThrow(/named twice/);
  });

  it('users need a sandbox identity, and a command can run only as one the sandbox has', async () => {
    const base = await mkdtemp(join(scratch, 'spec-'));
    const users = [{ id: 1000, identity: { uid: 9000, gid: 9000 } }];
    await expect(NamespaceSandbox.start({ rootMountPoint: base, binds: [], network: 'none', users })).rejects.toThrow(/need a sandbox identity/);
    await expect(NamespaceSandbox.start({ rootMountPoint: base, binds: [], network: 'none', identity: { uid: 9000, gid: 9000 }, users })).rejects.toThrow(/ids of its own/);
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

describe.skipIf(!probe.available)('a sandbox with a further user (as root)', () => {
  const users = resolveSandboxUsers(identity, [1000]);
  const user = users[0]!;

  it('is what the probe finds working', async () => {
    expect(await probeNamespaceSandbox(join(scratch, 'probe-users'), { network: 'none', identity, users })).toEqual({ available: true });
  });

  it('runs a command as that user: its own host identity, no capability, its files its own', async () => {
    const { sandbox, workspace } = await sandboxWithWorkspace(users);
    try {
      await chmod(workspace, 0o777);
      expect(await inside(sandbox, 'id -u; id -g; id -G; grep CapEff /proc/self/status; : > made', 1000)).toBe('1000\n1000\n1000\nCapEff:\t0000000000000000\n');
      expect(await lstat(join(workspace, 'made'))).toMatchObject({ uid: user.identity.uid, gid: user.identity.gid });
      // Root inside sees the user as 1000, and may give it a file; the maps read as the setup wrote them.
      expect(await inside(sandbox, 'stat -c %u:%g made; : > given; chown 1000:1000 given; cat /proc/self/uid_map /proc/self/gid_map')).toMatch(/^1000:1000\n(\s+0\s+1\s+1\n\s+1000\s+2\s+1\n){2}$/);
      expect(await lstat(join(workspace, 'given'))).toMatchObject({ uid: user.identity.uid, gid: user.identity.gid });
      expect(() => sandbox.launch('/', ['true'], {}, 1001)).toThrow(/no user 1001/);
      // Its users are in its record: a restarted caller runs commands as them again.
      const holder = new HolderFile(join(workspace, '..', 'holder.json'));
      await holder.write(sandbox.record);
      const adopted = await NamespaceSandbox.adopt((await holder.read())!);
      expect(await inside(adopted!, 'id -u', 1000)).toBe('1000\n');
    } finally {
      await sandbox.kill(5_000);
    }
  });

  it('that user meets root\'s permissions and cannot become root: a 0700 directory, a 0600 file, setuid and unshare are refused', async () => {
    const { sandbox } = await sandboxWithWorkspace(users);
    try {
      await inside(sandbox, 'mkdir private && chmod 700 private && echo secret > private/key && echo mine > own && chmod 600 own && chmod 777 .');
      const script = [
        'cat private/key 2>/dev/null || echo no-read',
        'touch private/new 2>/dev/null || echo no-write',
        'cat own 2>/dev/null || echo no-own',
        'setpriv --reuid=0 true 2>/dev/null || echo no-setuid',
        'unshare --user --map-root-user sh -c "cat private/key" 2>/dev/null || echo no-escape',
      ].join('; ');
      expect(await inside(sandbox, script, 1000)).toBe('no-read\nno-write\nno-own\nno-setuid\nno-escape\n');
      // Nothing of the setup's handshake is left where commands look.
      expect(await inside(sandbox, 'ls -A /dev/shm', 1000)).toBe('');
    } finally {
      await sandbox.kill(5_000);
    }
  });

  it('becomes root only through a setuid program of a read-only setuid bind, and has a name where a file bind over /etc/passwd gives one', async () => {
    // As `sudo` on a VM: a copy of setpriv owned by the sandbox identity, in a directory host users cannot enter.
    const tools = await mkdtemp(join(scratch, 'tools-'));
    const bin = join(tools, 'bin');
    await mkdir(bin);
    await copyFile('/usr/bin/setpriv', join(bin, 'setpriv'));
    await chown(join(bin, 'setpriv'), identity.uid, identity.gid);
    await chmod(join(bin, 'setpriv'), 0o4755);
    await writeFile(join(tools, 'passwd'), 'root:x:0:0:root:/root:/bin/sh\nuser:x:1000:1000::/home/user:/bin/sh\n');
    const binds: SandboxBind[] = [
      { source: bin, target: '/opt/tools', readOnly: true, setuid: true },
      { source: join(tools, 'passwd'), target: '/etc/passwd', readOnly: true },
    ];
    const { sandbox } = await sandboxWithWorkspace(users, binds);
    try {
      expect(await inside(sandbox, 'id -un; /opt/tools/setpriv --reuid=0 --regid=0 --clear-groups id -un', 1000)).toBe('user\nroot\n');
      // The same program elsewhere, copied by root inside, is only a program: binds are nosuid unless asked.
      expect(await inside(sandbox, 'cp /opt/tools/setpriv s && chmod 4755 s && chmod 777 .')).toBe('');
      expect(await inside(sandbox, './s --reuid=0 true 2>/dev/null || echo refused', 1000)).toBe('refused\n');
      // Nobody inside can change it.
      expect(await inside(sandbox, 'chmod 755 /opt/tools/setpriv 2>/dev/null || echo read-only; mount -o remount,rw /opt/tools 2>/dev/null || echo locked')).toBe('read-only\nlocked\n');
    } finally {
      await sandbox.kill(5_000);
    }
    await expect(NamespaceSandbox.start({ rootMountPoint: tools, binds: [{ source: bin, target: '/opt/tools', setuid: true }], network: 'none' })).rejects.toThrow(/setuid bind must be read-only/);
  });
});
