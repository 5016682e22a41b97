import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MountShell } from '../src/layers/mount-shell';
import { useTemporaryDirectories } from './fs-fixture';

describe('MountShell', () => {
  const temporary = useTemporaryDirectories();
  const shell = new MountShell();
  afterEach(() => shell.close());

  it("runs each command in its directory with its words as given (quotes, spaces, newlines, `$`), answering its status and first line of output", async () => {
    const directory = join(await temporary('shell'), "it's a\ndir $HOME `x`");
    await mkdir(directory);
    expect(await shell.run(directory, ['pwd'], 5_000)).toEqual({ status: 0, firstLine: directory.split('\n')[0] });
    expect(await shell.run('/', ['printf', "%s\\n%s\\n", "first 'line' $x", 'second'], 5_000)).toEqual({ status: 0, firstLine: "first 'line' $x" });
    expect(await shell.run('/', ['sh', '-c', 'echo failed >&2; exit 3'], 5_000)).toEqual({ status: 3, firstLine: 'failed' });
    expect((await shell.run(join(directory, 'missing'), ['true'], 5_000)).status).not.toBe(0);
  });

  it('answers requests made at once in order, one command at a time', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, (_, at) => shell.run('/', ['echo', String(at)], 5_000)));
    expect(answers.map(({ firstLine }) => firstLine)).toEqual(Array.from({ length: 20 }, (_, at) => String(at)));
  });

  it('kills a command that outlasts its timeout, with its shell; the next request starts a new shell', async () => {
    await expect(shell.run('/', ['sleep', '30'], 200)).rejects.toThrow(/did not finish in 200 ms/);
    expect(await shell.run('/', ['echo', 'again'], 5_000)).toEqual({ status: 0, firstLine: 'again' });
  });
});
