/**
 * The fallback used where `unshare` is not permitted: commands run with their cwd mapped
 * into the sandbox directory and HOME pointing at it. Forced here so it is tested on
 * machines where the namespace works too.
 */
import { Sandbox } from 'e2b';
import { describe, expect, it } from 'vitest';
import { useEmulator } from './support/emulator-fixture.js';

const fixture = useEmulator({ isolation: 'directory' });

describe('directory isolation (fallback)', () => {
  it('is reported in state(), and relative paths and HOME reach the sandbox files', async () => {
    expect((await fixture.emulator.state()).isolation).toEqual({ mode: 'directory', reason: 'forced by the isolation option' });
    const sandbox = await Sandbox.create(fixture.sdk);
    await sandbox.files.write('/home/user/project/in.txt', 'input');
    const result = await sandbox.commands.run('cat in.txt > out.txt && cat "$HOME/project/out.txt" && pwd', { cwd: '/home/user/project' });
    const directory = (await fixture.emulator.state()).sandboxes[0]?.directory;
    expect(result.stdout).toBe(`input${directory}/home/user/project\n`);
    expect(await sandbox.files.read('/home/user/project/out.txt')).toBe('input');
    await sandbox.kill();
  });
});
