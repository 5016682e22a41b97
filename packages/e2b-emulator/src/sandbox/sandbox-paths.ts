/**
 * Sandbox paths → host paths. A sandbox's whole filesystem lives under its directory:
 * sandbox `/home/user/x` is `<sandboxDir>/home/user/x`. Relative and `~` paths are relative
 * to the user's home, as in envd. Symlinks are resolved inside the sandbox (an absolute
 * target is re-rooted at the sandbox directory), so no path can reach the host.
 */
import { lstat, readlink } from 'node:fs/promises';
import path from 'node:path';

export const SANDBOX_HOME = '/home/user';
const MAX_SYMLINK_HOPS = 40;

/** A sandbox path that is malformed or tries to climb above `/`. */
export class InvalidSandboxPathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidSandboxPathError';
  }
}

/**
 * Normalises a path as the SDK sends it to an absolute sandbox path; relative and `~` paths
 * start at `home` (the calling user's: `/root` for root, as in envd).
 * Throws InvalidSandboxPathError for empty paths, NUL bytes and `..` escapes above `/`.
 */
export function normalizeSandboxPath(input: string, home = SANDBOX_HOME): string {
  if (input.length === 0) throw new InvalidSandboxPathError('path must not be empty');
  if (input.includes('\0')) throw new InvalidSandboxPathError('path must not contain NUL bytes');
  let absolute = input;
  if (input === '~') absolute = home;
  else if (input.startsWith('~/')) absolute = `${home}/${input.slice(2)}`;
  else if (!input.startsWith('/')) absolute = `${home}/${input}`;
  const parts: string[] = [];
  for (const part of absolute.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) throw new InvalidSandboxPathError(`path '${input}' escapes the sandbox root`);
      parts.pop();
      continue;
    }
    parts.push(part);
  }
  return `/${parts.join('/')}`;
}

/** A sandbox path and where it lives on the host. */
export interface ResolvedPath {
  sandboxPath: string;
  hostPath: string;
}

/**
 * Resolves an absolute, normalised sandbox path to its host path, following symlinks inside
 * the sandbox. `followLast` decides whether a symlink as the last component is followed
 * (read/write) or kept (stat, remove, rename). Components that do not exist are kept as-is.
 */
export async function resolveSandboxPath(
  sandboxDir: string,
  sandboxPath: string,
  followLast: boolean,
): Promise<ResolvedPath> {
  const pending = sandboxPath.split('/').filter((part) => part.length > 0);
  let resolved: string[] = [];
  let hops = 0;
  while (pending.length > 0) {
    const part = pending.shift() as string;
    if (part === '.') continue;
    if (part === '..') {
      resolved.pop();
      continue;
    }
    const hostPath = path.join(sandboxDir, ...resolved, part);
    const isLast = pending.length === 0;
    const stats = await lstat(hostPath).catch(() => undefined);
    if (stats?.isSymbolicLink() && (!isLast || followLast)) {
      hops += 1;
      if (hops > MAX_SYMLINK_HOPS) throw new InvalidSandboxPathError(`too many levels of symbolic links in '${sandboxPath}'`);
      const target = await readlink(hostPath);
      if (target.startsWith('/')) resolved = [];
      pending.unshift(...target.split('/').filter((segment) => segment.length > 0));
      continue;
    }
    resolved.push(part);
  }
  return { sandboxPath: `/${resolved.join('/')}`, hostPath: path.join(sandboxDir, ...resolved) };
}

/** The sandbox path of a host path known to be inside `sandboxDir`. */
export function sandboxPathOf(sandboxDir: string, hostPath: string): string {
  const relative = path.relative(sandboxDir, hostPath);
  return relative === '' ? '/' : `/${relative.split(path.sep).join('/')}`;
}
