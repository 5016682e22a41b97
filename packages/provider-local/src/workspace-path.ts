import { posix } from 'node:path';

/** Where a sandbox shows the host's system (read-only) or its own /proc and /dev: no workspace may be there. */
const SYSTEM_DIRECTORIES = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/proc', '/dev'];

/**
 * The `workspacePath` setting, checked: an absolute, normalised path (no `.`, `..`, `//` or
 * trailing slash), not `/`, not in or above a system directory the sandbox shows. Throws
 * `TypeError` naming the rule.
 */
export function checkWorkspacePath(path: string): string {
  if (typeof path !== 'string' || !path.startsWith('/') || posix.normalize(path) !== path || path.endsWith('/') || path.includes('\0')) {
    throw new TypeError(`workspacePath must be an absolute, normalised path: ${JSON.stringify(path)}`);
  }
  const clash = SYSTEM_DIRECTORIES.find((system) => path === system || path.startsWith(`${system}/`) || system.startsWith(`${path}/`));
  if (clash) throw new TypeError(`workspacePath ${path} would hide or lie in the sandbox's ${clash}`);
  return path;
}
