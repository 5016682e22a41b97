import { IDEMPOTENCY_COLUMNS, idempotencyFromRow, idempotencyToRow, type IdempotencyRecord, type IdempotencyRow } from '@runtimectl/core';
import type pg from 'pg';
import type { PoolDatabase } from './pool-database';
import { idempotencyStatements } from './store-statements';

/** The parameters of an idempotency row, in IDEMPOTENCY_COLUMNS order. */
export function idempotencyParams(record: IdempotencyRecord): unknown[] {
  const row = idempotencyToRow(record);
  return IDEMPOTENCY_COLUMNS.map((column) => row[column]);
}

/** Rows read per step while evicting (oldest first). */
const EVICTION_BATCH = 64;

/** A claim that found neither a live record nor room to insert retries this often at most (a key deleted in between). */
const CLAIM_ATTEMPTS = 5;

/**
 * Every Idempotency-Key operation of the store, in one place: the claim, its completion, its
 * removal and the expiry sweep. Writes inside a commit use `writeInTransaction`.
 */
export class PostgresIdempotencyKeys {
  readonly #db: PoolDatabase;
  readonly #sql: ReturnType<typeof idempotencyStatements>;

  constructor(db: PoolDatabase, schema: string) {
    this.#db = db;
    this.#sql = idempotencyStatements(schema);
  }

  /**
   * Inserts `record`, or replaces a record whose key expired by `record.createdAtMs`, in one
   * statement (`INSERT … ON CONFLICT DO UPDATE … WHERE expired`): a live record is left alone
   * and read back. Of concurrent claims one wins: PostgreSQL locks the conflicting row.
   */
  async claim(record: IdempotencyRecord): Promise<IdempotencyRecord | undefined> {
    for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt += 1) {
      const inserted = await this.#db.rows(this.#sql.claim, idempotencyParams(record));
      if (inserted.length > 0) return undefined;
      const [existing] = await this.#db.rows<IdempotencyRow>(this.#sql.get, [record.key]);
      if (existing && existing.expires_at_ms > record.createdAtMs) return idempotencyFromRow(existing);
      // Deleted or expired since the claim ran: claim again.
    }
    throw new Error(`could not claim Idempotency-Key ${record.key}: it changed under ${CLAIM_ATTEMPTS} claims in a row`);
  }

  /** Replaces the abandoned claim by `claim` in one conditional UPDATE (the row lock makes one racer win). */
  async takeOver(abandoned: IdempotencyRecord, claim: IdempotencyRecord): Promise<boolean> {
    if (claim.key !== abandoned.key) return false;
    const updated = await this.#db.rows(this.#sql.takeOver, [...idempotencyParams(claim), abandoned.ownerId, abandoned.createdAtMs]);
    return updated.length === 1;
  }

  async put(record: IdempotencyRecord): Promise<void> {
    await this.#db.run(this.#sql.upsert, idempotencyParams(record));
  }

  async writeInTransaction(client: pg.PoolClient, record: IdempotencyRecord): Promise<void> {
    await client.query(this.#sql.upsert, idempotencyParams(record));
  }

  async delete(key: string): Promise<void> {
    await this.#db.run(this.#sql.delete, [key]);
  }

  async deleteExpired(nowMs: number): Promise<number> {
    return this.#db.run(this.#sql.deleteExpired, [nowMs]);
  }

  /**
   * Deletes the oldest completed records (by creation, then key) until all records together
   * weigh at most `maxTotalBytes`; in-flight claims count but stay. One transaction, holding the
   * total's row: under the bound it reads that row alone.
   */
  async evict(maxTotalBytes: number): Promise<number> {
    return this.#db.transaction(async (client) => {
      const [totalRow] = (await client.query<{ stored_bytes: number }>(this.#sql.lockTotalBytes)).rows;
      let total = totalRow?.stored_bytes ?? 0;
      let removed = 0;
      while (total > maxTotalBytes) {
        const oldest = (await client.query<{ key: string; stored_bytes: number }>(this.#sql.oldestCompleted, [EVICTION_BATCH])).rows;
        if (oldest.length === 0) break;
        const keys: string[] = [];
        for (const { key, stored_bytes } of oldest) {
          if (total <= maxTotalBytes) break;
          keys.push(key);
          total -= stored_bytes;
        }
        await client.query(this.#sql.deleteKeys, [keys]);
        removed += keys.length;
      }
      return removed;
    });
  }
}
