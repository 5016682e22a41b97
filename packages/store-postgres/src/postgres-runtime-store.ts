import {
  latestMarks,
  CHECKPOINT_COLUMNS,
  INTENT_COLUMNS,
  SESSION_COLUMNS,
  checkpointFromRow,
  checkpointToRow,
  intentFromRow,
  intentToRow,
  sessionFromRow,
  sessionToRow,
  type CheckpointRecord,
  type StoredCheckpointRow,
  type SnapshottedCheckpointQuery,
  type SnapshottedCheckpoint,
  type SnapshottedCheckpointRow,
  snapshottedFromRow,
  type TreeObjectRow,
  type IdempotencyRecord,
  type IntentRow,
  type Page,
  type ProviderIntent,
  type RuntimeStore,
  type SessionListQuery,
  type SessionRecord,
  type SessionRow,
  type StoreBatch,
  type StoreCheckpointListQuery,
  type StoredRuntimeStatus,
  type LeaseGrant,
  type LeaseRequest,
  type NodeRecord,
  type RuntimeFence,
  type EventQuery,
  type RuntimeEvent,
  type WebhookCursor,
  type WebhookDelivery,
  type WebhookDeliveryQuery,
  type WebhookProgress,
  type StoredApiKey,
} from '@runtimectl/core';
import { fleetStatements } from './fleet-statements';
import { PostgresEventLog } from './postgres-event-log';
import { PostgresWebhookLog } from './postgres-webhook-log';
import { PostgresApiKeys } from './postgres-api-keys';
import { PostgresIdempotencyKeys } from './idempotency-keys';
import type { MigrationOutcome } from './migrate-schema';
import type { PoolDatabase } from './pool-database';
import { PostgresLeases } from './postgres-leases';
import { PostgresNodeRegistry } from './postgres-node-registry';
import { storeStatements, type StoreStatements } from './store-statements';

function page<Row, T>(rows: Row[], limit: number, toRecord: (row: Row) => T, idOf: (record: T) => string): Page<T> {
  const items = rows.slice(0, limit).map(toRecord);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last !== undefined ? idOf(last) : null };
}

/** A row's values in `columns` order: the `$1…$n` of an upsert. */
function params<Row>(row: Row, columns: ReadonlyArray<keyof Row>): unknown[] {
  return columns.map((column) => row[column]);
}

/**
 * The `RuntimeStore` on PostgreSQL (node-postgres pool): the same records, queries and
 * guarantees as store-sqlite, in tables of one schema. `commit` is one transaction; reads
 * build fresh objects from rows, so they are always copies. Open it with `openPostgresStore`,
 * which migrates the schema first.
 */
export class PostgresRuntimeStore implements RuntimeStore {
  readonly schema: string;
  /** The schema version found at start and the one now in the database. */
  readonly migration: MigrationOutcome;
  readonly #db: PoolDatabase;
  readonly #sql: StoreStatements;
  readonly #idempotency: PostgresIdempotencyKeys;
  readonly #events: PostgresEventLog;
  readonly #leases: PostgresLeases;
  readonly #nodes: PostgresNodeRegistry;
  readonly #webhooks: PostgresWebhookLog;
  readonly #apiKeys: PostgresApiKeys;
  #closed = false;

  constructor(db: PoolDatabase, schema: string, migration: MigrationOutcome) {
    this.#db = db;
    this.schema = schema;
    this.migration = migration;
    this.#sql = storeStatements(schema);
    this.#idempotency = new PostgresIdempotencyKeys(db, schema);
    this.#events = new PostgresEventLog(db, schema);
    const fleet = fleetStatements(schema);
    this.#leases = new PostgresLeases(db, fleet);
    this.#nodes = new PostgresNodeRegistry(db, fleet);
    this.#webhooks = new PostgresWebhookLog(db, schema, this.#leases);
    this.#apiKeys = new PostgresApiKeys(db, schema);
  }

  async getSession(runtimeId: string): Promise<SessionRecord | undefined> {
    const [row] = await this.#db.rows<SessionRow>(this.#sql.getSession, [runtimeId]);
    return row && sessionFromRow(row);
  }

  async listSessions(query: SessionListQuery): Promise<Page<SessionRecord>> {
    // '' sorts before every runtime id, so "no cursor" and "after ''" are the same query.
    const base = [query.cursor ?? '', query.limit + 1];
    const { status, backendProviderId: providerId } = query;
    const sql = this.#sql;
    let rows: SessionRow[];
    if (providerId === undefined) {
      rows =
        status === undefined
          ? await this.#db.rows<SessionRow>(sql.listSessions, base)
          : await this.#db.rows<SessionRow>(sql.listSessionsWithStatus, [...base, status]);
    } else {
      rows =
        status === undefined
          ? await this.#db.rows<SessionRow>(sql.listSessionsOnProvider, [...base, providerId])
          : await this.#db.rows<SessionRow>(sql.listSessionsOnProviderWithStatus, [...base, providerId, status]);
    }
    return page(rows, query.limit, sessionFromRow, (record) => record.runtimeId);
  }

  async listChildSessions(runtimeId: string): Promise<SessionRecord[]> {
    return (await this.#db.rows<SessionRow>(this.#sql.listChildSessions, [runtimeId])).map(sessionFromRow);
  }

  async listSessionsBySourceSnapshot(providerId: string, snapshotId: string): Promise<SessionRecord[]> {
    return (await this.#db.rows<SessionRow>(this.#sql.listSessionsBySourceSnapshot, [providerId, snapshotId])).map(sessionFromRow);
  }

  async listSessionsByBackend(backendId: string): Promise<SessionRecord[]> {
    return (await this.#db.rows<SessionRow>(this.#sql.listSessionsByBackend, [backendId])).map(sessionFromRow);
  }

  async countSessionsByHomeNode(): Promise<Record<string, number>> {
    const rows = await this.#db.rows<{ home_node_id: string; count: number }>(this.#sql.countSessionsByHomeNode);
    return Object.fromEntries(rows.map(({ home_node_id, count }) => [home_node_id, count]));
  }

  async countSessionsByStatus(): Promise<Record<StoredRuntimeStatus, number>> {
    const counts: Record<StoredRuntimeStatus, number> = { idle: 0, paused: 0, failed: 0, closed: 0 };
    for (const { status, count } of await this.#db.rows<{ status: string; count: number }>(this.#sql.countSessionsByStatus)) {
      counts[status as StoredRuntimeStatus] = count;
    }
    return counts;
  }

  async getCheckpoint(checkpointId: string): Promise<CheckpointRecord | undefined> {
    const [row] = await this.#db.rows<StoredCheckpointRow>(this.#sql.getCheckpoint, [checkpointId]);
    return row && checkpointFromRow(row);
  }

  async listCheckpoints(runtimeId: string, query: StoreCheckpointListQuery): Promise<Page<CheckpointRecord>> {
    const limit = query.limit + 1;
    const rows =
      query.cursor === undefined
        ? await this.#db.rows<StoredCheckpointRow>(this.#sql.listCheckpoints, [runtimeId, limit])
        : await this.#db.rows<StoredCheckpointRow>(this.#sql.listCheckpointsAfter, [runtimeId, limit, query.cursor]);
    return page(rows, query.limit, checkpointFromRow, (record) => record.checkpointId);
  }

  async listCheckpointsBySnapshot(providerId: string, snapshotId: string): Promise<CheckpointRecord[]> {
    return (await this.#db.rows<StoredCheckpointRow>(this.#sql.listCheckpointsBySnapshot, [providerId, snapshotId])).map(checkpointFromRow);
  }

  async listSnapshottedCheckpoints(query: SnapshottedCheckpointQuery): Promise<Page<SnapshottedCheckpoint>> {
    // '' sorts before every id (COLLATE "C").
    const rows = await this.#db.rows<SnapshottedCheckpointRow>(this.#sql.listSnapshottedCheckpoints, [query.cursor ?? '', query.limit + 1]);
    return page(rows, query.limit, snapshottedFromRow, (record) => record.checkpointId);
  }

  async listSnapshotIdsOfRuntime(runtimeId: string): Promise<Array<{ providerId: string; snapshotId: string }>> {
    const rows = await this.#db.rows<{ providerId: string; snapshotId: string }>(this.#sql.listSnapshotIdsOfRuntime, [runtimeId]);
    return rows.map(({ providerId, snapshotId }) => ({ providerId, snapshotId }));
  }

  async getTreeObjects(hashes: readonly string[]): Promise<Map<string, Uint8Array>> {
    if (hashes.length === 0) return new Map();
    const rows = await this.#db.rows<TreeObjectRow>(this.#sql.getTreeObjects, [[...hashes]]);
    return new Map(rows.map(({ hash, body }) => [hash, new Uint8Array(body)]));
  }

  /**
   * Writes the batch in one transaction and resolves once PostgreSQL committed it. Rejects, with
   * nothing applied, when a record cannot be stored (not serialisable, or naming a runtime or
   * checkpoint that does not exist by the end of the batch: the deferred keys are checked at
   * COMMIT), with StoreUnavailableError when the database cannot be reached, and with
   * LeaseLostError when one of its fences is no longer an unexpired lease (checked first, in
   * the same transaction, holding the leases FOR SHARE until COMMIT).
   * Checkpoints go first, as in store-sqlite.
   */
  async commit(batch: StoreBatch): Promise<void> {
    const sql = this.#sql;
    await this.#db.transaction(async (client) => {
      await this.#leases.assertHeld(client, batch.fences ?? []);
      for (const record of batch.checkpoints ?? []) {
        await client.query(sql.upsertCheckpoint, params(checkpointToRow(record), CHECKPOINT_COLUMNS));
      }
      for (const mark of batch.checkpointMarks ?? []) {
        if (mark.pinned !== undefined) await client.query(sql.pinCheckpoint, [mark.checkpointId, mark.pinned]);
        if (mark.usedAtMs !== undefined) await client.query(sql.useCheckpoint, [mark.checkpointId, mark.usedAtMs]);
      }
      for (const record of batch.sessions ?? []) await client.query(sql.upsertSession, params(sessionToRow(record), SESSION_COLUMNS));
      const active = latestMarks(batch.sessionMarks ?? []);
      if (active.length > 0) await client.query(sql.markSessionsActive, [active.map((mark) => mark.runtimeId), active.map((mark) => mark.activeAtMs)]);
      for (const intent of batch.intents ?? []) await client.query(sql.upsertIntent, params(intentToRow(intent), INTENT_COLUMNS));
      for (const intentId of batch.resolvedIntentIds ?? []) await client.query(sql.deleteIntent, [intentId]);
      for (const record of batch.idempotencyRecords ?? []) await this.#idempotency.writeInTransaction(client, record);
      const trees = batch.treeObjects ?? [];
      if (trees.length > 0) {
        await client.query(sql.insertTreeObjects, [trees.map(({ hash }) => hash), trees.map(({ body }) => Buffer.from(body.buffer, body.byteOffset, body.byteLength))]);
      }
      // Last: the event log's row lock is then held only for the commit itself.
      await this.#events.appendInTransaction(client, batch.events ?? []);
    });
  }

  async getWebhookCursor(webhookId: string): Promise<WebhookCursor | undefined> {
    return this.#webhooks.cursor(webhookId);
  }

  listWebhookCursors(): Promise<WebhookCursor[]> {
    return this.#webhooks.cursors();
  }

  recordWebhookProgress(progress: WebhookProgress): Promise<void> {
    return this.#webhooks.record(progress);
  }

  listWebhookDeliveries(query: WebhookDeliveryQuery): Promise<WebhookDelivery[]> {
    return this.#webhooks.list(query);
  }

  pruneWebhookDeliveries(beforeMs: number): Promise<number> {
    return this.#webhooks.prune(beforeMs);
  }

  createApiKey(key: StoredApiKey): Promise<boolean> {
    return this.#apiKeys.create(key);
  }

  findApiKey(tokenSha256: string): Promise<StoredApiKey | undefined> {
    return this.#apiKeys.find(tokenSha256);
  }

  listApiKeys(): Promise<StoredApiKey[]> {
    return this.#apiKeys.list();
  }

  deleteApiKey(name: string): Promise<boolean> {
    return this.#apiKeys.delete(name);
  }

  async listEvents(query: EventQuery): Promise<RuntimeEvent[]> {
    return this.#events.list(query);
  }

  async lastEventId(): Promise<number> {
    return this.#events.lastEventId();
  }

  async pruneEvents(beforeMs: number): Promise<number> {
    return this.#events.prune(beforeMs);
  }

  async listIntents(): Promise<ProviderIntent[]> {
    return (await this.#db.rows<IntentRow>(this.#sql.listIntents)).map(intentFromRow);
  }

  async claimIdempotencyKey(record: IdempotencyRecord): Promise<IdempotencyRecord | undefined> {
    return this.#idempotency.claim(record);
  }

  async putIdempotencyRecord(record: IdempotencyRecord): Promise<void> {
    await this.#idempotency.put(record);
  }

  async takeOverIdempotencyKey(abandoned: IdempotencyRecord, claim: IdempotencyRecord): Promise<boolean> {
    return this.#idempotency.takeOver(abandoned, claim);
  }

  async deleteIdempotencyKey(key: string): Promise<void> {
    await this.#idempotency.delete(key);
  }

  async deleteExpiredIdempotencyKeys(nowMs: number): Promise<number> {
    return this.#idempotency.deleteExpired(nowMs);
  }

  async evictIdempotencyRecords(maxTotalBytes: number): Promise<number> {
    return this.#idempotency.evict(maxTotalBytes);
  }

  async acquireLease(request: LeaseRequest): Promise<LeaseGrant> {
    return this.#leases.acquire(request);
  }

  async releaseLease(fence: RuntimeFence): Promise<void> {
    await this.#leases.release(fence);
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
    await this.#nodes.register(node);
  }

  async heartbeatNode(nodeId: string, leaseTtlMs: number): Promise<void> {
    await this.#nodes.heartbeat(nodeId, leaseTtlMs);
  }

  async listNodes(): Promise<NodeRecord[]> {
    return this.#nodes.list();
  }

  /** The database clock (`clock_timestamp()`): what leases and heartbeats are measured on. */
  async storeTimeMs(): Promise<number> {
    return this.#nodes.now();
  }

  /** Ends the pool once its clients are idle. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#db.pool.end();
  }
}
