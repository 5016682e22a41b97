import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidSandboxPathError, normalizeSandboxPath, resolveSandboxPath } from './sandbox-paths.js';

describe('normalizeSandboxPath', () => {
  it('makes relative and ~ paths relative to /home/user, like envd', () => {
    expect(normalizeSandboxPath('a.txt')).toBe('/home/user/a.txt');
    expect(normalizeSandboxPath('~')).toBe('/home/user');
    expect(normalizeSandboxPath('~/x/../y')).toBe('/home/user/y');
    expect(normalizeSandboxPath('/tmp//a/./b/')).toBe('/tmp/a/b');
    expect(normalizeSandboxPath('a.txt', '/root')).toBe('/root/a.txt');
    expect(normalizeSandboxPath('~/b', '/root')).toBe('/root/b');
  });

  it('refuses .. that climbs above the sandbox root, empty paths and NUL bytes', () => {
    expect(() => normalizeSandboxPath('/../etc/passwd')).toThrow(InvalidSandboxPathError);
    expect(() => normalizeSandboxPath('../../../etc')).toThrow(InvalidSandboxPathError);
    expect(() => normalizeSandboxPath('')).toThrow(InvalidSandboxPathError);
    expect(() => normalizeSandboxPath('/a\0b')).toThrow(InvalidSandboxPathError);
  });
});

describe('resolveSandboxPath', () => {
  let sandboxDir: string;
  beforeAll(async () => {
    sandboxDir = await mkdtemp(path.join(os.tmpdir(), 'sandbox-paths-'));
    await mkdir(path.join(sandboxDir, 'home', 'user', 'real'), { recursive: true });
    await writeFile(path.join(sandboxDir, 'home', 'user', 'real', 'f.txt'), 'x');
    await symlink('/home/user/real', path.join(sandboxDir, 'home', 'user', 'absolute-link'));
    await symlink('../../..', path.join(sandboxDir, 'home', 'user', 'climbing-link'));
    await symlink('loop-b', path.join(sandboxDir, 'loop-a'));
    await symlink('loop-a', path.join(sandboxDir, 'loop-b'));
  });
  afterAll(async () => {
    await rm(sandboxDir, { recursive: true, force: true });
  });

  it('re-roots absolute symlink targets at the sandbox directory', async () => {
    const resolved = await resolveSandboxPath(sandboxDir, '/home/user/absolute-link/f.txt', true);
    expect(resolved).toEqual({
      sandboxPath: '/home/user/real/f.txt',
      hostPath: path.join(sandboxDir, 'home', 'user', 'real', 'f.txt'),
    });
  });

  it('clamps relative symlinks that climb past / at the sandbox root', async () => {
    const resolved = await resolveSandboxPath(sandboxDir, '/home/user/climbing-link/../../etc/passwd', true);
    expect(resolved.hostPath.startsWith(sandboxDir)).toBe(true);
    expect(resolved.sandboxPath).toBe('/etc/passwd');
  });

  it('keeps a final symlink when asked not to follow it, and stops symlink loops', async () => {
    const kept = await resolveSandboxPath(sandboxDir, '/home/user/absolute-link', false);
    expect(kept.sandboxPath).toBe('/home/user/absolute-link');
    await expect(resolveSandboxPath(sandboxDir, '/loop-a', true)).rejects.toThrow(/too many levels/);
  });
});
