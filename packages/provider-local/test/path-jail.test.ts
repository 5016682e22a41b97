import { mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RuntimectlError, type ProviderBackend } from '@runtimectl/core';
import { createBackend, localProvider, text, useTemporaryDirectories, utf8 } from './local-fixture';

async function refused(work: Promise<unknown>, path: string): Promise<RuntimectlError> {
  const error = await work.then(
    () => {
      throw new Error(`expected ${JSON.stringify(path)} to be refused`);
    },
    (caught: unknown) => caught,
  );
  expect(RuntimectlError.isInstance(error), String(error)).toBe(true);
  expect((error as RuntimectlError).code).toBe('invalid_request');
  return error as RuntimectlError;
}

/** Every reading operation on `path` is refused with invalid_request naming it. */
async function readsRefused(backend: ProviderBackend, path: string): Promise<void> {
  const error = await refused(backend.readBytes(path), path);
  if (path.length < 200) expect(error.details).toEqual({ path });
  await refused(backend.stat(path), path);
  await refused(backend.export(path), path);
  await refused(backend.glob({ pattern: '**', baseDir: path, limit: 10 }), path);
  await refused(backend.grep({ query: 'x', baseDir: path, mode: 'content', limit: 10 }), path);
  await refused(backend.exec({ command: 'true', cwd: path, maxOutputBytes: 100 }), path);
}

/**
 * Every creating operation on `path` is refused. Only ever called with paths that lead into a
 * scratch directory, so a broken jail cannot damage the machine running the tests.
 */
async function writesRefused(backend: ProviderBackend, path: string): Promise<void> {
  const error = await refused(backend.writeBytes(path, utf8('hostile')), path);
  if (path.length < 200) expect(error.details).toEqual({ path });
  await refused(backend.createDirAll(path), path);
}

describe('local provider path jail', () => {
  const temporary = useTemporaryDirectories();

  async function jailed() {
    const outside = await temporary('outside');
    await writeFile(join(outside, 'secret.txt'), 'outside secret');
    const { provider, root } = await localProvider(temporary);
    const { backend, directory } = await createBackend(provider);
    return { backend, outside, root, directory };
  }

  it('refuses ../../etc/passwd and other climbs out of the workspace, naming the path', async () => {
    const { backend, outside } = await jailed();
    for (const path of ['../../etc/passwd', '..', '../sibling', 'a/../../b', './../x']) await readsRefused(backend, path);
    const climbToOutside = `../../${basename(outside)}`;
    await readsRefused(backend, `${climbToOutside}/secret.txt`);
    await writesRefused(backend, `${climbToOutside}/created.txt`);
    expect(await readdir(outside)).toEqual(['secret.txt']);
  });

  it('refuses absolute paths outside the workspace', async () => {
    const { backend, outside } = await jailed();
    for (const path of ['/etc/passwd', '/', join(outside, 'secret.txt'), `${backend.workspaceRoot}-sibling/file`]) {
      await readsRefused(backend, path);
    }
    await writesRefused(backend, join(outside, 'created.txt'));
    expect(await readdir(outside)).toEqual(['secret.txt']);
  });

  it('allows .. that stays inside the workspace', async () => {
    const { backend } = await jailed();
    await backend.writeBytes('a/b/../c.txt', utf8('inside'));
    expect(text(await backend.readBytes('a/c.txt'))).toBe('inside');
  });

  it('refuses to go through a symlink to / and creates nothing through it', async () => {
    const { backend, outside, directory } = await jailed();
    await symlink('/', join(directory, 'rootlink'));
    await readsRefused(backend, 'rootlink/etc/passwd');
    await readsRefused(backend, 'rootlink');
    await writesRefused(backend, `rootlink${outside}/created.txt`);
    expect(await readdir(outside)).toEqual(['secret.txt']);
  });

  it('refuses a symlink inside the workspace that points out, for reads and writes', async () => {
    const { backend, outside, directory } = await jailed();
    await symlink(outside, join(directory, 'escape'));
    await symlink(join(outside, 'secret.txt'), join(directory, 'secret-link'));
    await readsRefused(backend, 'escape/secret.txt');
    await readsRefused(backend, 'secret-link');
    await writesRefused(backend, 'escape/new-file.txt');
    await writesRefused(backend, 'escape/new-dir/file.txt');
    await refused(backend.writeBytes('secret-link', utf8('overwritten')), 'secret-link');
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('outside secret');
    expect(await readdir(outside)).toEqual(['secret.txt']);
  });

  it('refuses a dangling symlink whose target is outside, so a write cannot create it', async () => {
    const { backend, outside, directory } = await jailed();
    await symlink(join(outside, 'would-be-created.txt'), join(directory, 'dangling'));
    await refused(backend.writeBytes('dangling', utf8('x')), 'dangling');
    await refused(backend.writeBytes('dangling/child.txt', utf8('x')), 'dangling/child.txt');
    await refused(backend.createDirAll('dangling'), 'dangling');
    expect(await readdir(outside)).toEqual(['secret.txt']);
  });

  it('follows symlinks that stay inside the workspace', async () => {
    const { backend, directory } = await jailed();
    await backend.writeBytes('real/data.txt', utf8('through a link'));
    await symlink('real', join(directory, 'alias'));
    expect(text(await backend.readBytes('alias/data.txt'))).toBe('through a link');
    await backend.writeBytes('alias/new.txt', utf8('written via link'));
    expect(text(await backend.readBytes('real/new.txt'))).toBe('written via link');
  });

  it('search does not follow symlinks, so files outside never show up', async () => {
    const { backend, outside, directory } = await jailed();
    await backend.writeBytes('own.txt', utf8('secret inside'));
    await symlink(outside, join(directory, 'escape'));
    await symlink('/', join(directory, 'rootlink'));
    expect(await backend.glob({ pattern: '**', limit: 100 })).toEqual({ kind: 'paths', paths: ['own.txt'], truncated: false });
    expect(await backend.grep({ query: 'secret', mode: 'files_with_matches', limit: 100 })).toEqual({
      kind: 'paths',
      paths: ['own.txt'],
      truncated: false,
    });
  });

  it('refuses paths containing NUL bytes', async () => {
    const { backend } = await jailed();
    for (const path of ['innocent.txt\u0000../../etc/passwd', '\u0000', 'dir/na\u0000me']) {
      await readsRefused(backend, path);
      await writesRefused(backend, path);
    }
  });

  it('refuses over-long names and paths instead of failing in the file system', async () => {
    const { backend, directory } = await jailed();
    for (const path of ['n'.repeat(5000), `dir/${'n'.repeat(256)}.txt`, Array.from({ length: 1200 }, () => 'abc').join('/')]) {
      await readsRefused(backend, path);
      await writesRefused(backend, path);
    }
    const longest = 'n'.repeat(255);
    await backend.writeBytes(longest, utf8('a name of exactly 255 bytes is fine'));
    expect((await stat(join(directory, longest))).isFile()).toBe(true);
  });

  it('refuses temp prefixes and suffixes that could name another directory', async () => {
    const { backend } = await jailed();
    await refused(backend.tempPath({ kind: 'file', prefix: '../../escape-' }), 'prefix');
    await refused(backend.tempPath({ kind: 'file', suffix: '/x' }), 'suffix');
  });

  it('refuses a .tmp directory that is a symlink out of the workspace', async () => {
    const { backend, outside, directory } = await jailed();
    await mkdir(join(outside, 'tmp-target'));
    await symlink(join(outside, 'tmp-target'), join(directory, '.tmp'));
    await refused(backend.tempPath({ kind: 'file' }), '.tmp');
    expect(await readdir(join(outside, 'tmp-target'))).toEqual([]);
  });
});
