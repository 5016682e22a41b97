import { loadPersistedId } from './persisted-id';

/** This daemon's node id when `fleet.node_id` gives none: random, kept in the state directory. */
export function loadNodeId(stateDir: string): string {
  return loadPersistedId(stateDir, 'node-id', 'node');
}
