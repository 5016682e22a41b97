import { NODE_COLUMNS, nodeFromRow, type NodeRecord, type NodeRow } from '@runtimectl/core';
import type Database from 'better-sqlite3';
import type { SqliteLeases } from './lease-table';

const NODE_SQL = {
  upsertNode:
    `INSERT INTO nodes (${NODE_COLUMNS.join(', ')}) VALUES (${NODE_COLUMNS.map((column) => `@${column}`).join(', ')}) ` +
    `ON CONFLICT (node_id) DO UPDATE SET ${NODE_COLUMNS.filter((column) => column !== 'node_id')
      .map((column) => `${column} = excluded.${column}`)
      .join(', ')}`,
  heartbeat: 'UPDATE nodes SET heartbeat_at_ms = ? WHERE node_id = ?',
  listNodes: `SELECT ${NODE_COLUMNS.join(', ')} FROM nodes ORDER BY node_id`,
  insertInstallationId: 'INSERT INTO installation (id, installation_id) VALUES (1, ?) ON CONFLICT (id) DO NOTHING',
  installationId: 'SELECT installation_id FROM installation WHERE id = 1',
} as const;

type Statements = { [Name in keyof typeof NODE_SQL]: Database.Statement };

/**
 * The NodeStore half of the SQLite store: the node registry and the installation id, durable
 * tables of the file (a restart keeps both). The clock is the process's.
 */
export class SqliteNodeRegistry {
  readonly #sql: Statements;
  readonly #claim: (candidate: string) => string;
  readonly #heartbeat: (nodeId: string, leaseTtlMs: number) => void;
  readonly #register: (row: NodeRow) => void;

  constructor(db: Database.Database, leases: SqliteLeases) {
    const sql = Object.fromEntries(Object.entries(NODE_SQL).map(([name, text]) => [name, db.prepare(text)])) as Statements;
    this.#sql = sql;
    // IMMEDIATE: of two processes opening the file at once, one inserts and both read its id.
    const claim = db.transaction((candidate: string) => {
      sql.insertInstallationId.run(candidate);
      return (sql.installationId.get() as { installation_id: string }).installation_id;
    });
    this.#claim = (candidate) => claim.immediate(candidate);
    this.#heartbeat = db.transaction((nodeId: string, leaseTtlMs: number) => {
      sql.heartbeat.run(Date.now(), nodeId);
      leases.renew(nodeId, leaseTtlMs);
    });
    this.#register = db.transaction((row: NodeRow) => {
      sql.upsertNode.run(row);
      leases.releaseHolder(row.node_id);
    });
  }

  claimInstallationId(candidate: string): string {
    return this.#claim(candidate);
  }

  register(node: Omit<NodeRecord, 'heartbeatAtMs'>): void {
    const row: NodeRow = {
      node_id: node.nodeId,
      advertise_url: node.advertiseUrl,
      version: node.version,
      started_at_ms: node.startedAtMs,
      heartbeat_at_ms: Date.now(),
    };
    this.#register(row);
  }

  heartbeat(nodeId: string, leaseTtlMs: number): void {
    this.#heartbeat(nodeId, leaseTtlMs);
  }

  list(): NodeRecord[] {
    return (this.#sql.listNodes.all() as NodeRow[]).map(nodeFromRow);
  }
}
