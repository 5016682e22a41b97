/** E2B's default user `user` (home /home/user) and `root` when the SDK asks for it. */
import { Sandbox } from 'e2b';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from './support/emulator-fixture.js';

const fixture = useEmulator();
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await Sandbox.create(fixture.sdk);
});
afterAll(async () => {
  await sandbox.kill();
});

describe('the default user', () => {
  it('files written by the files API and by commands are owned by user:user', async () => {
    await sandbox.files.write('owned.txt', 'x');
    await sandbox.commands.run('mkdir -p made-by-command && echo y > made-by-command/f.txt');
    const file = await sandbox.files.getInfo('/home/user/owned.txt');
    expect([file.owner, file.group]).toEqual(['user', 'user']);
    const listed = await sandbox.files.list('/home/user/made-by-command');
    expect(listed.map((entry) => [entry.name, entry.owner, entry.group])).toEqual([['f.txt', 'user', 'user']]);
    const directory = await sandbox.files.getInfo('/home/user/made-by-command');
    expect([directory.owner, directory.group]).toEqual(['user', 'user']);
  });

  it('relative paths and a command with no user start at /home/user, as user', async () => {
    const written = await sandbox.files.write('relative.txt', 'r');
    expect(written.path).toBe('/home/user/relative.txt');
    const { stdout } = await sandbox.commands.run('pwd; echo "$HOME $USER"');
    expect(stdout).toBe('/home/user\n/home/user user\n');
  });

  it('as root, relative paths start at /root and commands run with root\'s HOME and cwd', async () => {
    const written = await sandbox.files.write('root-note.txt', 'for root', { user: 'root' });
    expect(written.path).toBe('/root/root-note.txt');
    expect(await sandbox.files.read('/root/root-note.txt')).toBe('for root');
    expect(await sandbox.files.exists('root-note.txt', { user: 'root' })).toBe(true);
    expect(await sandbox.files.exists('root-note.txt')).toBe(false);
    const { stdout } = await sandbox.commands.run('pwd; echo "$HOME $USER"; cat root-note.txt', { user: 'root' });
    expect(stdout).toBe('/root\n/root root\nfor root');
  });

  it("has password-less sudo, as E2B's templates give `user`: the command runs as root, and a variable scoped to an earlier command is not there", async () => {
    const scoped = await sandbox.commands.run('echo $FOO', { envs: { FOO: 'bar' } });
    expect(scoped.stdout.trim()).toBe('bar');
    const elevated = await sandbox.commands.run('sudo echo "[$FOO]"; sudo sh -c \'echo $USER $HOME\'; command -v sudo');
    expect(elevated.stdout).toBe('[]\nroot /root\n/usr/local/sbin/sudo\n');
    const tampered = await sandbox.commands.run('echo "exit 9" > /usr/local/sbin/sudo 2>/dev/null || echo read-only; sudo true && echo intact', { user: 'root' });
    expect(tampered.stdout).toBe('read-only\nintact\n');
  });

  it("gives commands E2B's PATH, never the emulator's own (which may lack /usr/local/sbin, where sudo is, and name host directories)", async () => {
    const emulatorPath = process.env.PATH;
    process.env.PATH = '/usr/bin:/bin:/opt/emulator-only/bin';
    try {
      const { stdout } = await sandbox.commands.run('echo $PATH; command -v sudo');
      expect(stdout).toBe('/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\n/usr/local/sbin/sudo\n');
    } finally {
      process.env.PATH = emulatorPath;
    }
  });
});
