/**
 * As root, the emulator makes `user` and `root` two identities, as on E2B: uid 1000 and 0 inside,
 * each a host identity of its own, with permissions between them and a sudo that really switches.
 * Not root there is one identity (docs/e2b-emulator-fidelity.md, "Users"): these tests need root.
 */
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { Sandbox } from 'e2b';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from './support/emulator-fixture.js';

const asRoot = process.getuid?.() === 0;
const fixture = useEmulator();
let sandbox: Sandbox;

describe.skipIf(!asRoot)('user and root, two identities (the emulator as root)', () => {
  beforeAll(async () => {
    sandbox = await Sandbox.create(fixture.sdk);
  });
  afterAll(async () => {
    await sandbox?.kill();
  });

  it('the probe found them: each sandbox user is a host identity of its own, nobody on the host', () => {
    const { users, usersReason } = fixture.emulator.isolation;
    expect(usersReason).toBeUndefined();
    expect(users?.user.uid).toBe(users!.root.uid + 1000);
  });

  it('keeps sandboxes and snapshots where no host user can reach them: a setuid program root leaves inside runs as the sandbox identity there', async () => {
    for (const directory of ['sandboxes', 'templates']) expect((await lstat(path.join(fixture.emulator.root, directory))).mode & 0o777).toBe(0o700);
  });

  it('commands run as uid 1000 for user and 0 for root, with names, and no capability for user', async () => {
    const asUser = await sandbox.commands.run('id -u; id -g; id -un; whoami; grep CapEff /proc/self/status');
    expect(asUser.stdout).toBe('1000\n1000\nuser\nuser\nCapEff:\t0000000000000000\n');
    const asRootInside = await sandbox.commands.run('id -u; id -g; whoami', { user: 'root' });
    expect(asRootInside.stdout).toBe('0\n0\nroot\n');
  });

  it("user meets root's permissions — /root, a 0600 file — and sudo really makes it root", async () => {
    await sandbox.commands.run('echo secret > /root/key && chmod 600 /root/key && echo mine > /home/user/root-only && chmod 600 /home/user/root-only', { user: 'root' });
    const denied = await sandbox.commands.run('cat /root/key 2>/dev/null || echo no-root-home; touch /root/x 2>/dev/null || echo no-write; cat root-only 2>/dev/null || echo no-read');
    expect(denied.stdout).toBe('no-root-home\nno-write\nno-read\n');
    const elevated = await sandbox.commands.run('sudo id -u; sudo cat /root/key; sudo -u user id -u; sudo sh -c \'echo $USER $HOME\'');
    expect(elevated.stdout).toBe('0\nsecret\n1000\nroot /root\n');
    const dropped = await sandbox.commands.run('sudo -u user sh -c \'id -u; cat /root/key 2>/dev/null || echo still-no\'', { user: 'root' });
    expect(dropped.stdout).toBe('1000\nstill-no\n');
  });

  it('the files API gives what it writes to the user it writes for, as envd chowns, and names owners as envd does', async () => {
    await sandbox.files.write('/home/user/deep/er/by-user.txt', 'u');
    await sandbox.files.write('/home/user/by-root.txt', 'r', { user: 'root' });
    const owners = async (file: string) => {
      const info = await sandbox.files.getInfo(file);
      return `${info.owner}:${info.group}`;
    };
    expect([await owners('/home/user/deep'), await owners('/home/user/deep/er/by-user.txt'), await owners('/home/user/by-root.txt')]).toEqual(['user:user', 'user:user', 'root:root']);
    // An existing file written by user becomes user's; MakeDir as root makes root's directories.
    await sandbox.files.write('/home/user/by-root.txt', 'now user\'s');
    expect(await owners('/home/user/by-root.txt')).toBe('user:user');
    await sandbox.files.makeDir('/home/user/root-dir/inner', { user: 'root' });
    expect([await owners('/home/user/root-dir'), await owners('/home/user/root-dir/inner')]).toEqual(['root:root', 'root:root']);
    const listed = await sandbox.commands.run('stat -c "%U:%G %n" deep/er/by-user.txt root-dir/inner /root /tmp');
    expect(listed.stdout).toBe('user:user deep/er/by-user.txt\nroot:root root-dir/inner\nroot:root /root\nroot:root /tmp\n');
    // On the host they are the two identities.
    const { users } = fixture.emulator.isolation;
    const host = path.join(fixture.emulator.root, 'sandboxes', sandbox.sandboxId, 'home', 'user');
    expect(await lstat(path.join(host, 'deep', 'er', 'by-user.txt'))).toMatchObject({ uid: users!.user.uid, gid: users!.user.gid });
    expect(await lstat(path.join(host, 'root-dir'))).toMatchObject({ uid: users!.root.uid, gid: users!.root.gid });
  });

  it('a snapshot, and a sandbox made from it, keep who owns what — a setuid bit too', async () => {
    await sandbox.commands.run('echo r > /home/user/kept-root && cp /bin/true /home/user/setuid-true && chmod 4755 /home/user/setuid-true && echo s > /root/kept && chmod 600 /root/kept', { user: 'root' });
    await sandbox.commands.run('echo u > /home/user/kept-user');
    const snapshot = await sandbox.createSnapshot();
    const child = await Sandbox.create(snapshot.snapshotId, fixture.sdk);
    try {
      const { stdout } = await child.commands.run('stat -c "%U %a %n" kept-root kept-user setuid-true; cat /root/kept 2>/dev/null || echo no-root-home');
      expect(stdout).toBe('root 644 kept-root\nuser 644 kept-user\nroot 4755 setuid-true\nno-root-home\n');
      const asRootInside = await child.commands.run('stat -c "%U %a %n" /root /root/kept', { user: 'root' });
      expect(asRootInside.stdout).toBe('root 700 /root\nroot 600 /root/kept\n');
    } finally {
      await child.kill();
      await Sandbox.deleteSnapshot(snapshot.snapshotId, fixture.sdk).catch(() => undefined);
    }
  });
});
