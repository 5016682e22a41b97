import { chmod, lstat, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stripSetIdBits } from '../src/layers/strip-set-id';
import { useTemporaryDirectories } from './fs-fixture';

const modeOf = async (path: string) => (await lstat(path)).mode & 0o7777;

describe('stripSetIdBits', () => {
  const temporary = useTemporaryDirectories();

  // A small tree is walked in the daemon, a large one by `find`: both clear every bit.
  it.each([
    ['a few entries (walked in the daemon)', 3],
    ['thousands of entries (find)', 2_500],
  ])('clears every setuid and setgid bit in a tree of %s, the root and links left as they are otherwise', async (_, filler) => {
    const root = await temporary('tree');
    await chmod(root, 0o2755);
    await mkdir(join(root, 'deep/er'), { recursive: true });
    await chmod(join(root, 'deep'), 0o3775);
    await writeFile(join(root, 'deep/er/tool'), '#!/bin/sh\n');
    await chmod(join(root, 'deep/er/tool'), 0o4755);
    await writeFile(join(root, 'plain'), 'x');
    await chmod(join(root, 'plain'), 0o640);
    await symlink('deep/er/tool', join(root, 'link'));
    await mkdir(join(root, 'filler'));
    await Promise.all(Array.from({ length: filler }, (_, at) => writeFile(join(root, 'filler', `f${at}`), '')));

    await stripSetIdBits(root);

    expect(await modeOf(root)).toBe(0o755);
    expect(await modeOf(join(root, 'deep'))).toBe(0o1775);
    expect(await modeOf(join(root, 'deep/er/tool'))).toBe(0o755);
    expect(await modeOf(join(root, 'plain'))).toBe(0o640);
    expect((await lstat(join(root, 'link'))).isSymbolicLink()).toBe(true);
  });
});
