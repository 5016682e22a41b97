import {
  type CheckpointRecord,
  type IdempotencyRecord,
  type Page,
  type ProviderIntent,
  type RuntimeStore,
  type SessionListQuery,
  type SessionRecord,
  type StoreBatch,
  type StoreCheckpointListQuery,
  type SnapshottedCheckpointQuery,
  type SnapshottedCheckpoint,
  snapshottedFromRow,
  type StoredRuntimeStatus,
  type LeaseGrant,
  type LeaseRequest,
  type NodeRecord,
  type RuntimeFence,
  checkpointFromRow,
  checkpointToRow,
  eventFromRow,
  eventToRow,
  type EventQuery,
  type RuntimeEvent,
  type WebhookCursor,
  type WebhookDelivery,
  type WebhookDeliveryQuery,
  type WebhookProgress,
  type StoredApiKey,
  idempotencyFromRow,
  idempotencyToRow,
  intentFromRow,
  intentToRow,
  sessionFromRow,
  sessionToRow,
  type SessionRow,
} from '@runtimectl/core';
import type Database from 'better-sqlite3';
import { openDatabase, type SqliteStoreSettings } from './open-database';
import type { MigrationOutcome } from './migrate-schema';
import { prepareStatements, type StoreStatements } from './store-statements';
import { SqliteLeases } from './lease-table';
import { SqliteNodeRegistry } from './node-registry';
import { SqliteWebhookLog } from './sqlite-webhook-log';
import { SqliteApiKeys } from './sqlite-api-keys';

export interface SqliteStoreDiagnostics {
  path: string;
  schemaVersion: number;
  journalMode: string;
  synchronous: string;
  foreignKeys: boolean;
  busyTimeoutMs: number;
}

/** Rows read per step while evicting Idempotency-Key records (oldest first). */
const EVICTION_BATCH = 64;
const SYNCHRONOUS_NAMES: Record<number, string> = { 0: 'off', 1: 'normal', 2: 'full', 3: 'extra' };

function page<Row, T>(rows: Row[], limit: number, toRecord: (row: Row) => T, idOf: (record: T) => string): Page<T> {
  const items = rows.slice(0, limit).map(toRecord);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last !== undefined ? idOf(last) : null };
}

/**
 * The durable `RuntimeStore` on one SQLite file (better-sqlite3, synchronous under the hood:
 * every call completes before its promise is returned, so calls never interleave). Reads build
 * fresh objects from rows, so they are always copies; `commit` is one transaction.
 * Opening migrates an older schema and refuses a newer one (SchemaVersionTooNewError).
 */
export class SqliteRuntimeStore implements RuntimeStore {
  readonly path: string;
  /** The schema version found at open and the one now in the file. */
  readonly migration: MigrationOutcome;
  readonly #db: Database.Database;
  readonly #statements: StoreStatements;
  readonly #leases: SqliteLeases;
  readonly #nodes: SqliteNodeRegistry;
  readonly #webhooks: SqliteWebhookLog;
  readonly #apiKeys: SqliteApiKeys;
  readonly #commit: (batch: StoreBatch) => void;
  readonly #claim: (record: IdempotencyRecord) => IdempotencyRecord | undefined;
  readonly #evict: (maxTotalBytes: number) => number;

  constructor(settings: SqliteStoreSettings) {
    const { db, migration } = openDatabase(settings);
    this.path = settings.path;
    this.migration = migration;
    this.#db = db;
    this.#statements = prepareStatements(db);
    const statements = this.#statements;
    const leases = new SqliteLeases(db);
    this.#leases = leases;
    this.#nodes = new SqliteNodeRegistry(db, leases);
    this.#webhooks = new SqliteWebhookLog(db, leases);
    this.#apiKeys = new SqliteApiKeys(db);
    // Rows are built inside the transaction: a record that cannot be serialised, or a deferred
    // foreign key that fails at COMMIT, rolls back everything the batch wrote before it.
    // Checkpoints go first: the service's batches (a new checkpoint + the session whose head it
    // becomes) then never hold a pending foreign-key violation, which SQLite would have to
    // re-check on every later insert.
    // The fences are checked first, inside the transaction: a lost lease writes nothing.
    this.#commit = db.transaction((batch: StoreBatch) => {
      leases.assertHeld(batch.fences ?? []);
      for (const record of batch.checkpoints ?? []) statements.upsertCheckpoint.run(checkpointToRow(record));
      for (const mark of batch.checkpointMarks ?? []) {
        if (mark.pinned !== undefined) statements.pinCheckpoint.run({ checkpointId: mark.checkpointId, pinned: mark.pinned ? 1 : 0 });
        if (mark.usedAtMs !== undefined) statements.useCheckpoint.run({ checkpointId: mark.checkpointId, atMs: mark.usedAtMs });
      }
      for (const record of batch.sessions ?? []) statements.upsertSession.run(sessionToRow(record));
      for (const mark of batch.sessionMarks ?? []) statements.markSessionActive.run({ runtimeId: mark.runtimeId, atMs: mark.activeAtMs });
      for (const intent of batch.intents ?? []) statements.upsertIntent.run(intentToRow(intent));
      for (const intentId of batch.resolvedIntentIds ?? []) statements.deleteIntent.run(intentId);
      for (const record of batch.idempotencyRecords ?? []) statements.upsertIdempotencyKey.run(idempotencyToRow(record));
      // One writer at a time (SQLite's lock): ids are assigned, and become visible, in commit order.
      for (const event of batch.events ?? []) statements.insertEvent.run(eventToRow(event));
      for (const { hash, body } of batch.treeObjects ?? []) statements.insertTreeObject.run({ hash, body: Buffer.from(body.buffer, body.byteOffset, body.byteLength) });
    });
    // IMMEDIATE takes the write lock before reading, so two processes cannot both claim a key.
    const claim = db.transaction((record: IdempotencyRecord) => {
      const existing = statements.getIdempotencyKey.get(record.key);
      if (existing && existing.expires_at_ms > record.createdAtMs) return idempotencyFromRow(existing);
      statements.upsertIdempotencyKey.run(idempotencyToRow(record));
      return undefined;
    });
    this.#claim = (record) => claim.immediate(record);
    // The total is one row the triggers keep: under the bound, eviction reads nothing else.
    const evict = db.transaction((maxTotalBytes: number) => {
      let total = statements.idempotencyTotalBytes.get()?.stored_bytes ?? 0;
      let removed = 0;
      while (total > maxTotalBytes) {
        const oldest = statements.oldestCompletedIdempotencyKeys.all(EVICTION_BATCH);
        if (oldest.length === 0) break;
        for (const { key, stored_bytes } of oldest) {
          if (total <= maxTotalBytes) break;
          statements.deleteIdempotencyKey.run(key);
          total -= stored_bytes;
          removed += 1;
        }
      }
      return removed;
    });
    this.#evict = (maxTotalBytes) => evict.immediate(maxTotalBytes);
  }

  async getSession(runtimeId: string): Promise<SessionRecord | undefined> {
    const row = this.#statements.getSession.get(runtimeId);
    return row && sessionFromRow(row);
  }

  async listSessions(query: SessionListQuery): Promise<Page<SessionRecord>> {
    // '' sorts before every runtime id, so "no cursor" and "after ''" are the same query.
    const params = { cursor: query.cursor ?? '', limit: query.limit + 1 };
    const { status, backendProviderId: providerId } = query;
    const statements = this.#statements;
    let rows: SessionRow[];
    if (providerId === undefined) {
      rows = status === undefined ? statements.listSessions.all(params) : statements.listSessionsWithStatus.all({ ...params, status });
    } else {
      rows =
        status === undefined
          ? statements.listSessionsOnProvider.all({ ...params, providerId })
          : statements.listSessionsOnProviderWithStatus.all({ ...params, providerId, status });
    }
    return page(rows, query.limit, sessionFromRow, (record) => record.runtimeId);
  }

  async listChildSessions(runtimeId: string): Promise<SessionRecord[]> {
    return this.#statements.listChildSessions.all(runtimeId).map(sessionFromRow);
  }

  async listSessionsBySourceSnapshot(providerId: string, snapshotId: string): Promise<SessionRecord[]> {
    return this.#statements.listSessionsBySourceSnapshot.all(providerId, snapshotId).map(sessionFromRow);
  }

  async listSessionsByBackend(backendId: string): Promise<SessionRecord[]> {
    return this.#statements.listSessionsByBackend.all(backendId).map(sessionFromRow);
  }

  async countSessionsByHomeNode(): Promise<Record<string, number>> {
    return Object.fromEntries(this.#statements.countSessionsByHomeNode.all().map(({ home_node_id, count }) => [home_node_id, count]));
  }

  async countSessionsByStatus(): Promise<Record<StoredRuntimeStatus, number>> {
    const counts: Record<StoredRuntimeStatus, number> = { idle: 0, paused: 0, failed: 0, closed: 0 };
    for (const { status, count } of this.#statements.countSessionsByStatus.all()) {
      counts[status as StoredRuntimeStatus] = count;
    }
    return counts;
  }

  async getCheckpoint(checkpointId: string): Promise<CheckpointRecord | undefined> {
    const row = this.#statements.getCheckpoint.get(checkpointId);
    return row && checkpointFromRow(row);
  }

  async listCheckpoints(runtimeId: string, query: StoreCheckpointListQuery): Promise<Page<CheckpointRecord>> {
    const limit = query.limit + 1;
    const rows =
      query.cursor === undefined
        ? this.#statements.listCheckpoints.all({ runtimeId, limit })
        : this.#statements.listCheckpointsAfter.all({ runtimeId, cursor: query.cursor, limit });
    return page(rows, query.limit, checkpointFromRow, (record) => record.checkpointId);
  }

  async listCheckpointsBySnapshot(providerId: string, snapshotId: string): Promise<CheckpointRecord[]> {
    return this.#statements.listCheckpointsBySnapshot.all(providerId, snapshotId).map(checkpointFromRow);
  }

  async listSnapshottedCheckpoints(query: SnapshottedCheckpointQuery): Promise<Page<SnapshottedCheckpoint>> {
    const limit = query.limit + 1;
    const rows =
      query.cursor === undefined
        ? this.#statements.listSnapshottedCheckpoints.all({ limit })
        : this.#statements.listSnapshottedCheckpointsAfter.all({ cursor: query.cursor, limit });
    return page(rows, query.limit, snapshottedFromRow, (record) => record.checkpointId);
  }

  async getTreeObjects(hashes: readonly string[]): Promise<Map<string, Uint8Array>> {
    const found = new Map<string, Uint8Array>();
    for (const hash of hashes) {
      const row = this.#statements.getTreeObject.get(hash);
      if (row) found.set(hash, new Uint8Array(row.body));
    }
    return found;
  }

  async listSnapshotIdsOfRuntime(runtimeId: string): Promise<Array<{ providerId: string; snapshotId: string }>> {
    return this.#statements.listSnapshotIdsOfRuntime.all(runtimeId).map(({ providerId, snapshotId }) => ({ providerId, snapshotId }));
  }

  /**
   * Writes the batch in one transaction; resolves once SQLite has committed it (with the
   * default `synchronous: 'full'`, once it is fsynced). Rejects with LeaseLostError, nothing
   * applied, when one of its fences is no longer an unexpired lease. Rejects, with nothing applied, when a
   * record cannot be stored (not serialisable, or naming a runtime or checkpoint that does not
   * exist by the end of the batch).
   */
  async commit(batch: StoreBatch): Promise<void> {
    this.#commit(batch);
  }

  async listIntents(): Promise<ProviderIntent[]> {
    return this.#statements.listIntents.all().map(intentFromRow);
  }

  async listEvents(query: EventQuery): Promise<RuntimeEvent[]> {
    const cursor = { after: query.afterEventId, limit: query.limit, types: query.types ? JSON.stringify(query.types) : null };
    const rows =
      query.runtimeId === undefined
        ? this.#statements.listEvents.all(cursor)
        : this.#statements.listEventsOfRuntime.all({ ...cursor, runtimeId: query.runtimeId });
    return rows.map(eventFromRow);
  }

  async lastEventId(): Promise<number> {
    return this.#statements.lastEventId.get()?.seq ?? 0;
  }

  async pruneEvents(beforeMs: number): Promise<number> {
    return this.#statements.pruneEvents.run(beforeMs).changes;
  }

  async getWebhookCursor(webhookId: string): Promise<WebhookCursor | undefined> {
    return this.#webhooks.cursor(webhookId);
  }

  async listWebhookCursors(): Promise<WebhookCursor[]> {
    return this.#webhooks.cursors();
  }

  async recordWebhookProgress(progress: WebhookProgress): Promise<void> {
    this.#webhooks.record(progress);
  }

  async listWebhookDeliveries(query: WebhookDeliveryQuery): Promise<WebhookDelivery[]> {
    return this.#webhooks.list(query);
  }

  async pruneWebhookDeliveries(beforeMs: number): Promise<number> {
    return this.#webhooks.prune(beforeMs);
  }

  async createApiKey(key: StoredApiKey): Promise<boolean> {
    return this.#apiKeys.create(key);
  }

  async findApiKey(tokenSha256: string): Promise<StoredApiKey | undefined> {
    return this.#apiKeys.find(tokenSha256);
  }

  async listApiKeys(): Promise<StoredApiKey[]> {
    return this.#apiKeys.list();
  }

  async deleteApiKey(name: string): Promise<boolean> {
    return this.#apiKeys.delete(name);
  }

  async claimIdempotencyKey(record: IdempotencyRecord): Promise<IdempotencyRecord | undefined> {
    return this.#claim(record);
  }

  async putIdempotencyRecord(record: IdempotencyRecord): Promise<void> {
    this.#statements.upsertIdempotencyKey.run(idempotencyToRow(record));
  }

  async takeOverIdempotencyKey(abandoned: IdempotencyRecord, claim: IdempotencyRecord): Promise<boolean> {
    if (claim.key !== abandoned.key) return false;
    const row = { ...idempotencyToRow(claim), abandoned_owner_id: abandoned.ownerId, abandoned_created_at_ms: abandoned.createdAtMs };
    return this.#statements.takeOverIdempotencyKey.run(row).changes === 1;
  }

  async deleteIdempotencyKey(key: string): Promise<void> {
    this.#statements.deleteIdempotencyKey.run(key);
  }

  async deleteExpiredIdempotencyKeys(nowMs: number): Promise<number> {
    return this.#statements.deleteExpiredIdempotencyKeys.run(nowMs).changes;
  }

  async evictIdempotencyRecords(maxTotalBytes: number): Promise<number> {
    return this.#evict(maxTotalBytes);
  }

  /** Leases live in a TEMP table of this connection: they end with the process (see lease-table.ts). */
  async acquireLease(request: LeaseRequest): Promise<LeaseGrant> {
    return this.#leases.acquire(request);
  }

  async releaseLease(fence: RuntimeFence): Promise<void> {
    this.#leases.release(fence);
  }

  async renewLeases(holderId: string, ttlMs: number): Promise<number> {
    return this.#leases.renew(holderId, ttlMs);
  }

  async listBusyRuntimeIds(): Promise<string[]> {
    return this.#leases.busyRuntimeIds();
  }

  async claimInstallationId(candidate: string): Promise<string> {
    return this.#nodes.claimInstallationId(candidate);
  }

  async registerNode(node: Omit<NodeRecord, 'heartbeatAtMs'>): Promise<void> {
    this.#nodes.register(node);
  }

  async heartbeatNode(nodeId: string, leaseTtlMs: number): Promise<void> {
    this.#nodes.heartbeat(nodeId, leaseTtlMs);
  }

  async listNodes(): Promise<NodeRecord[]> {
    return this.#nodes.list();
  }

  /** The process clock: one process owns an SQLite store. */
  async storeTimeMs(): Promise<number> {
    return Date.now();
  }

  /** What the connection actually runs with, read back from SQLite (for start-up logs and tests). */
  diagnostics(): SqliteStoreDiagnostics {
    const pragma = (name: string) => this.#db.pragma(name, { simple: true });
    const synchronous = pragma('synchronous') as number;
    return {
      path: this.path,
      schemaVersion: pragma('user_version') as number,
      journalMode: String(pragma('journal_mode')),
      synchronous: SYNCHRONOUS_NAMES[synchronous] ?? String(synchronous),
      foreignKeys: pragma('foreign_keys') === 1,
      busyTimeoutMs: pragma('busy_timeout') as number,
    };
  }

  /** Closes the connection (SQLite folds the WAL into the file). Idempotent. */
  async close(): Promise<void> {
    if (this.#db.open) this.#db.close();
  }
}

/** Opens (creating or migrating) the SQLite store at `settings.path`. */
export function createSqliteStore(settings: SqliteStoreSettings): SqliteRuntimeStore {
  return new SqliteRuntimeStore(settings);
}
