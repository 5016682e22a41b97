import { randomBytes } from 'node:crypto';
import { LeaseLostError, type LeaseGrant, type LeaseMode, type LeaseRequest, type RuntimeFence } from '@runtimectl/core';
import type Database from 'better-sqlite3';

/**
 * Runtime leases of a one-process store, in a TEMP table of the store's connection: a lease
 * lives exactly as long as the process that holds it (the daemon restarting drops every lease,
 * as the in-process locks it replaces did), and granting or releasing one writes no page of the
 * database file, so it costs no fsync. `temp_store = MEMORY` keeps the table off the disk.
 * The clock is the process's.
 */
const CREATE_TABLE = `
  CREATE TEMP TABLE runtime_leases (
    token         TEXT    NOT NULL PRIMARY KEY,
    runtime_id    TEXT    NOT NULL,
    holder_id     TEXT    NOT NULL,
    mode          TEXT    NOT NULL CHECK (mode IN ('shared', 'checkout', 'exclusive')),
    expires_at_ms INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX temp.runtime_leases_by_runtime ON runtime_leases (runtime_id, expires_at_ms);
  CREATE INDEX temp.runtime_leases_by_holder ON runtime_leases (holder_id, expires_at_ms);
`;

const LEASE_SQL = {
  deleteExpired: 'DELETE FROM temp.runtime_leases WHERE runtime_id = ? AND expires_at_ms <= ?',
  heldModes: 'SELECT mode FROM temp.runtime_leases WHERE runtime_id = ?',
  insert: 'INSERT INTO temp.runtime_leases (token, runtime_id, holder_id, mode, expires_at_ms) VALUES (?, ?, ?, ?, ?)',
  release: 'DELETE FROM temp.runtime_leases WHERE token = ? AND runtime_id = ?',
  releaseHolder: 'DELETE FROM temp.runtime_leases WHERE holder_id = ?',
  renew: 'UPDATE temp.runtime_leases SET expires_at_ms = ? WHERE holder_id = ? AND expires_at_ms > ?',
  busy: "SELECT DISTINCT runtime_id FROM temp.runtime_leases WHERE mode <> 'checkout' AND expires_at_ms > ? ORDER BY runtime_id",
  live: 'SELECT 1 AS live FROM temp.runtime_leases WHERE token = ? AND runtime_id = ? AND expires_at_ms > ?',
} as const;

/** Why `requested` cannot be granted beside unexpired leases of `held` modes (RuntimeLocks' rules), or undefined. */
export function leaseConflict(held: readonly LeaseMode[], requested: LeaseMode): string | undefined {
  if (held.includes('exclusive')) return 'a control operation is in flight';
  if (requested === 'shared') return undefined;
  if (held.includes('shared')) return 'an operation is in flight';
  if (requested === 'exclusive' && held.includes('checkout')) return 'a checkout of its checkpoint is in flight';
  return undefined;
}

/**
 * Tokens never repeat: a random prefix per process (a restarted daemon cannot hand out a token
 * of its previous life) and a counter shared by every store the process opens.
 */
const TOKEN_PREFIX = randomBytes(8).toString('hex');
let tokensIssued = 0;
const nextToken = (): string => `${TOKEN_PREFIX}.${(tokensIssued += 1)}`;

type Statements = { [Name in keyof typeof LEASE_SQL]: Database.Statement };

/** The LeaseStore half of the SQLite store, on the connection's TEMP lease table. */
export class SqliteLeases {
  readonly #sql: Statements;

  constructor(db: Database.Database) {
    db.pragma('temp_store = MEMORY');
    db.exec(CREATE_TABLE);
    this.#sql = Object.fromEntries(Object.entries(LEASE_SQL).map(([name, sql]) => [name, db.prepare(sql)])) as Statements;
  }

  /** Synchronous, so no other call of this connection runs between the conflict check and the insert. */
  acquire(request: LeaseRequest): LeaseGrant {
    const now = Date.now();
    this.#sql.deleteExpired.run(request.runtimeId, now);
    const held = (this.#sql.heldModes.all(request.runtimeId) as Array<{ mode: LeaseMode }>).map((row) => row.mode);
    const conflict = leaseConflict(held, request.mode);
    if (conflict !== undefined) return { granted: false, conflict };
    const token = nextToken();
    this.#sql.insert.run(token, request.runtimeId, request.holderId, request.mode, now + request.ttlMs);
    return { granted: true, fence: { runtimeId: request.runtimeId, token } };
  }

  release(fence: RuntimeFence): void {
    this.#sql.release.run(fence.token, fence.runtimeId);
  }

  /** Ends every lease `holderId` holds (the node registered again: a restart). */
  releaseHolder(holderId: string): void {
    this.#sql.releaseHolder.run(holderId);
  }

  renew(holderId: string, ttlMs: number): number {
    const now = Date.now();
    return this.#sql.renew.run(now + ttlMs, holderId, now).changes;
  }

  busyRuntimeIds(): string[] {
    return (this.#sql.busy.all(Date.now()) as Array<{ runtime_id: string }>).map((row) => row.runtime_id);
  }

  /** Throws LeaseLostError naming the first fence that is not an unexpired lease of its runtime. Run inside the commit's transaction. */
  assertHeld(fences: readonly RuntimeFence[]): void {
    const now = Date.now();
    for (const fence of fences) {
      if (this.#sql.live.get(fence.token, fence.runtimeId, now) === undefined) throw new LeaseLostError(fence.runtimeId);
    }
  }
}
