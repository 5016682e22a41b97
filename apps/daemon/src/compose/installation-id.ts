import { loadPersistedId } from './persisted-id';

/**
 * A stable id for this installation, kept in the state directory. Provider resources are
 * labelled with it, so reconciliation can tell its own sandboxes from anyone else's.
 */
export function loadInstallationId(stateDir: string): string {
  return loadPersistedId(stateDir, 'installation-id', 'inst');
}
