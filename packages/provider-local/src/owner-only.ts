/**
 * Modes of the provider's own files under its root: the root itself and its bookkeeping beside
 * the workspaces (`.owners`, `.released`, `.ns`), which name every workspace and its owner — no
 * other local user may list or read them. A workspace's own directory and contents are the
 * runtime's and keep their modes; the owner-only root is what keeps other users out of them.
 */
export const OWNER_ONLY_DIRECTORY_MODE = 0o700;
export const OWNER_ONLY_FILE_MODE = 0o600;

/** Whether `name`, an entry directly under a provider root, is the provider's bookkeeping rather than a workspace (workspace names never start with a dot). */
export function isBookkeepingEntry(name: string): boolean {
  return name.startsWith('.');
}
