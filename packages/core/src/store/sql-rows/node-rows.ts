import type { NodeRecord } from '../fleet-store';

/** A `nodes` row (the fleet's node registry). */
export interface NodeRow {
  node_id: string;
  advertise_url: string | null;
  version: string;
  started_at_ms: number;
  /** On the store's clock (PostgreSQL's, or the process clock of a one-process store). */
  heartbeat_at_ms: number;
}

export function nodeFromRow(row: NodeRow): NodeRecord {
  return {
    nodeId: row.node_id,
    advertiseUrl: row.advertise_url,
    version: row.version,
    startedAtMs: row.started_at_ms,
    heartbeatAtMs: row.heartbeat_at_ms,
  };
}
