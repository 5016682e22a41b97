import { nodeFromRow, type NodeRecord, type NodeRow } from '@runtimectl/core';
import type { FleetStatements } from './fleet-statements';
import type { PoolDatabase } from './pool-database';

/** A claim that read no id retries this often at most (each retry sees the racing insert committed). */
const CLAIM_ATTEMPTS = 5;

/**
 * The NodeStore half of the PostgreSQL store: the installation id every node shares, the node
 * registry, and heartbeats on the database clock. Each call is one statement.
 */
export class PostgresNodeRegistry {
  readonly #db: PoolDatabase;
  readonly #sql: FleetStatements;

  constructor(db: PoolDatabase, sql: FleetStatements) {
    this.#db = db;
    this.#sql = sql;
  }

  async claimInstallationId(candidate: string): Promise<string> {
    let sql = this.#sql.claimInstallationId;
    for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt += 1) {
      const [row] = await this.#db.rows<{ installation_id: string }>(sql, attempt === 0 ? [candidate] : []);
      if (row) return row.installation_id;
      sql = this.#sql.installationId;
    }
    throw new Error(`no installation id could be claimed or read after ${CLAIM_ATTEMPTS} attempts`);
  }

  async register(node: Omit<NodeRecord, 'heartbeatAtMs'>): Promise<void> {
    await this.#db.run(this.#sql.registerNode, [node.nodeId, node.advertiseUrl, node.version, node.startedAtMs]);
  }

  async heartbeat(nodeId: string, leaseTtlMs: number): Promise<void> {
    await this.#db.run(this.#sql.heartbeat, [nodeId, Math.max(1, Math.ceil(leaseTtlMs))]);
  }

  async list(): Promise<NodeRecord[]> {
    return (await this.#db.rows<NodeRow>(this.#sql.listNodes)).map(nodeFromRow);
  }

  async now(): Promise<number> {
    const [row] = await this.#db.rows<{ now_ms: number }>(this.#sql.now);
    return row!.now_ms;
  }
}
