import { LeaseLostError, type LeaseGrant, type LeaseRequest, type RuntimeFence } from '@runtimectl/core';
import type pg from 'pg';
import type { FleetStatements } from './fleet-statements';
import type { PoolDatabase } from './pool-database';

/** What a token of this store looks like (a bigint of the sequence, in decimal): anything else names no lease. */
const TOKEN = /^[1-9][0-9]{0,17}$/;

/** SQLSTATE lock_not_available: the acquire's lock_timeout ran out. */
const LOCK_NOT_AVAILABLE = '55P03';

/**
 * The LeaseStore half of the PostgreSQL store: leases every node sharing the database sees,
 * granted atomically by one function call, expiring on the database clock. Acquire, release
 * and renew are one round trip each; a fenced commit adds one statement to its transaction.
 */
export class PostgresLeases {
  readonly #db: PoolDatabase;
  readonly #sql: FleetStatements;

  constructor(db: PoolDatabase, sql: FleetStatements) {
    this.#db = db;
    this.#sql = sql;
  }

  async acquire(request: LeaseRequest): Promise<LeaseGrant> {
    const ttlMs = Math.max(1, Math.ceil(request.ttlMs));
    let rows: Array<{ token: string | null; conflict: string | null }>;
    try {
      rows = await this.#db.rows(this.#sql.acquire, [request.runtimeId, request.holderId, request.mode, ttlMs]);
    } catch (error) {
      // A commit of the runtime still holds its lapsing lease FOR SHARE (a stalled node): busy, not broken.
      if ((error as { code?: unknown }).code === LOCK_NOT_AVAILABLE) return { granted: false, conflict: 'a commit under its previous lease is in flight' };
      throw error;
    }
    const [row] = rows;
    if (!row?.token) return { granted: false, conflict: row?.conflict ?? 'the lease was not granted' };
    return { granted: true, fence: { runtimeId: request.runtimeId, token: row.token } };
  }

  async release(fence: RuntimeFence): Promise<void> {
    if (!TOKEN.test(fence.token)) return;
    await this.#db.run(this.#sql.release, [fence.token, fence.runtimeId]);
  }

  async renew(holderId: string, ttlMs: number): Promise<number> {
    return this.#db.run(this.#sql.renew, [holderId, Math.max(1, Math.ceil(ttlMs))]);
  }

  async busyRuntimeIds(): Promise<string[]> {
    return (await this.#db.rows<{ runtime_id: string }>(this.#sql.busy)).map((row) => row.runtime_id);
  }

  /**
   * Inside the commit's transaction, first: throws LeaseLostError naming the first fence that is
   * not an unexpired lease of its runtime, and keeps the others locked FOR SHARE until COMMIT.
   */
  async assertHeld(client: pg.PoolClient, fences: readonly RuntimeFence[]): Promise<void> {
    if (fences.length === 0) return;
    const wellFormed = fences.filter((fence) => TOKEN.test(fence.token));
    const live = new Set<string>();
    if (wellFormed.length > 0) {
      const result = await client.query<{ token: string }>(this.#sql.liveFences, [
        wellFormed.map((fence) => fence.token),
        wellFormed.map((fence) => fence.runtimeId),
      ]);
      for (const row of result.rows) live.add(row.token);
    }
    const lost = fences.find((fence) => !live.has(fence.token));
    if (lost) throw new LeaseLostError(lost.runtimeId);
  }
}
