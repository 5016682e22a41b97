/**
 * A directory tree deeper than PATH_MAX on the host, built by a command: 19 directories of 203
 * bytes and a last one that brings the relative path to 4,095 bytes. The path is valid for a
 * caller, but longer than PATH_MAX once a workspace root is in front, so every absolute-path
 * file call on it fails with ENAMETOOLONG — what a hostile command can leave behind.
 */
const NAMES = [...Array.from({ length: 19 }, () => 'b'.repeat(203)), 'c'.repeat(4095 - 19 * 204)];

export const DEEP_TREE = {
  /** Workspace-relative path of the deepest directory (4,095 bytes). */
  path: NAMES.join('/'),
  /** POSIX shell command building the tree in the working directory. `cd -P`: a shell's logical `cd` refuses once $PWD would pass PATH_MAX. */
  buildCommand: [...NAMES.slice(0, -1).map((name) => `mkdir ${name} && cd -P ${name}`), `mkdir ${NAMES.at(-1)}`].join(' && '),
  /** Removes the tree: the shell's `rm` works relative to descriptors, Node's recursive removal by absolute path does not. */
  removeCommand: `rm -rf ${NAMES[0]}`,
} as const;
