import type { EventQuery, RuntimeEvent } from './event-log';
import { MemoryEventLog } from './memory-event-log';
import { MemoryWebhookLog } from './memory-webhook-log';
import type { StoredApiKey } from './api-key-store';
import type { WebhookCursor, WebhookDelivery, WebhookDeliveryQuery, WebhookProgress } from './webhook-log';
import type { LeaseGrant, LeaseRequest, NodeRecord, RuntimeFence } from './fleet-store';
import { immutableCopy } from './immutable-record';
import { ProcessFleetState } from './process-fleet-state';
import { lowerBound, SortedIdIndex } from './sorted-id-index';
import { markedCheckpoint, snapshottedOf, withMarksOf } from './checkpoint-marks';
import { markedSession, withActivityOf } from './session-marks';
import { idempotencyRecordBytes, isSameClaim, type CheckpointMark, type CheckpointRecord, type SnapshottedCheckpoint, type IdempotencyRecord, type ProviderIntent, type SessionMark, type SessionRecord, type StoredRuntimeStatus } from './records';
import type {
  CheckpointListQuery,
  Page,
  RuntimeStore,
  SessionListQuery,
  SnapshottedCheckpointQuery,
  StoreBatch,
} from './runtime-store';

const snapshotKey = (providerId: string, snapshotId: string) => `${providerId}\u0000${snapshotId}`;

export interface MemoryRuntimeStoreOptions {
  /** The store's clock (lease and heartbeat expiry); tests inject one to let leases lapse. */
  clock?: () => number;
}

/**
 * Process-local store: the seed's v1 behaviour. Everything is lost when the process exits.
 * Records are kept deeply frozen (see immutableCopy) and reads return them as they are. Leases
 * and nodes are the one-node fleet (ProcessFleetState); a commit checks its fences first.
 */
export class MemoryRuntimeStore implements RuntimeStore {
  readonly #fleet: ProcessFleetState;
  readonly #sessions = new Map<string, SessionRecord>();
  readonly #checkpoints = new Map<string, CheckpointRecord>();
  readonly #childrenByParent = new SortedIdIndex();
  readonly #sessionsBySourceSnapshot = new SortedIdIndex();
  readonly #sessionsByBackend = new SortedIdIndex();
  readonly #checkpointsByRuntime = new SortedIdIndex();
  readonly #checkpointsBySnapshot = new SortedIdIndex();
  /** Checkpoints whose provider snapshot still exists, under the one key SNAPSHOTTED. */
  readonly #snapshotted = new SortedIdIndex();
  readonly #intents = new Map<string, ProviderIntent>();
  readonly #idempotency = new Map<string, IdempotencyRecord>();
  #idempotencyBytes = 0;
  readonly #events = new MemoryEventLog();
  /** Tree objects by hash; bodies are copied in, and never handed out (reads copy them). */
  readonly #trees = new Map<string, Uint8Array>();
  readonly #webhooks = new MemoryWebhookLog();
  /** Stored API keys by token hash. */
  readonly #apiKeys = new Map<string, StoredApiKey>();

  constructor(options: MemoryRuntimeStoreOptions = {}) {
    this.#fleet = new ProcessFleetState(options.clock);
  }

  async getSession(runtimeId: string): Promise<SessionRecord | undefined> {
    return this.#sessions.get(runtimeId);
  }

  async listSessions(query: SessionListQuery): Promise<Page<SessionRecord>> {
    const ids = [...this.#sessions.keys()].sort();
    const matching = ids
      .filter((id) => query.cursor === undefined || id > query.cursor)
      .map((id) => this.#sessions.get(id)!)
      .filter((record) => query.status === undefined || record.status === query.status)
      .filter((record) => query.backendProviderId === undefined || record.backend?.providerId === query.backendProviderId);
    return page(matching, query.limit, (record) => record.runtimeId);
  }

  async listChildSessions(runtimeId: string): Promise<SessionRecord[]> {
    return this.#lookup(this.#sessions, this.#childrenByParent.get(runtimeId));
  }

  async listSessionsBySourceSnapshot(providerId: string, snapshotId: string): Promise<SessionRecord[]> {
    return this.#lookup(this.#sessions, this.#sessionsBySourceSnapshot.get(snapshotKey(providerId, snapshotId)));
  }

  async listSessionsByBackend(backendId: string): Promise<SessionRecord[]> {
    return this.#lookup(this.#sessions, this.#sessionsByBackend.get(backendId));
  }

  async countSessionsByHomeNode(): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const session of this.#sessions.values()) {
      if (session.status !== 'closed' && session.homeNodeId) counts[session.homeNodeId] = (counts[session.homeNodeId] ?? 0) + 1;
    }
    return counts;
  }

  async countSessionsByStatus(): Promise<Record<StoredRuntimeStatus, number>> {
    const counts: Record<StoredRuntimeStatus, number> = { idle: 0, paused: 0, failed: 0, closed: 0 };
    for (const session of this.#sessions.values()) counts[session.status] += 1;
    return counts;
  }

  async getCheckpoint(checkpointId: string): Promise<CheckpointRecord | undefined> {
    return this.#checkpoints.get(checkpointId);
  }

  async listCheckpoints(runtimeId: string, query: CheckpointListQuery): Promise<Page<CheckpointRecord>> {
    // Ascending ids: newest first is a walk backwards from the cursor (or the end).
    const ids = this.#checkpointsByRuntime.get(runtimeId);
    const end = query.cursor === undefined ? ids.length : lowerBound(ids, query.cursor);
    const matching = ids
      .slice(Math.max(0, end - query.limit - 1), end)
      .reverse()
      .map((id) => this.#checkpoints.get(id)!);
    return page(matching, query.limit, (record) => record.checkpointId);
  }

  async listCheckpointsBySnapshot(providerId: string, snapshotId: string): Promise<CheckpointRecord[]> {
    return this.#lookup(this.#checkpoints, this.#checkpointsBySnapshot.get(snapshotKey(providerId, snapshotId)));
  }

  async listSnapshotIdsOfRuntime(runtimeId: string): Promise<Array<{ providerId: string; snapshotId: string }>> {
    const found = new Map<string, { providerId: string; snapshotId: string }>();
    for (const id of this.#checkpointsByRuntime.get(runtimeId)) {
      const ref = this.#checkpoints.get(id)?.backendRef;
      if (ref?.providerSnapshotId) {
        found.set(snapshotKey(ref.providerId, ref.providerSnapshotId), {
          providerId: ref.providerId,
          snapshotId: ref.providerSnapshotId,
        });
      }
    }
    return [...found.values()];
  }

  async listSnapshottedCheckpoints(query: SnapshottedCheckpointQuery): Promise<Page<SnapshottedCheckpoint>> {
    const ids = this.#snapshotted.get(SNAPSHOTTED);
    const at = query.cursor === undefined ? 0 : lowerBound(ids, query.cursor);
    const start = ids[at] === query.cursor ? at + 1 : at;
    const records = this.#lookup(this.#checkpoints, ids.slice(start, start + query.limit + 1));
    return page(records.map(snapshottedOf), query.limit, (record) => record.checkpointId);
  }

  async commit(batch: StoreBatch): Promise<void> {
    this.#fleet.assertFences(batch.fences);
    // Copy first so a bad record cannot leave the batch half applied.
    const sessions = (batch.sessions ?? []).map(immutableCopy);
    const checkpoints = (batch.checkpoints ?? []).map(immutableCopy);
    const marks = (batch.checkpointMarks ?? []).map(immutableCopy);
    const sessionMarks = (batch.sessionMarks ?? []).map(immutableCopy);
    const intents = (batch.intents ?? []).map(immutableCopy);
    const idempotencyRecords = (batch.idempotencyRecords ?? []).map(immutableCopy);
    const events = (batch.events ?? []).map(immutableCopy);
    const trees = (batch.treeObjects ?? []).filter(({ hash }) => !this.#trees.has(hash)).map(({ hash, body }) => [hash, new Uint8Array(body)] as const);
    for (const record of sessions) this.#putSession(record);
    for (const record of checkpoints) this.#putCheckpoint(record);
    for (const mark of marks) this.#markCheckpoint(mark);
    for (const mark of sessionMarks) this.#markSession(mark);
    for (const intent of intents) this.#intents.set(intent.intentId, intent);
    for (const id of batch.resolvedIntentIds ?? []) this.#intents.delete(id);
    for (const record of idempotencyRecords) this.#setIdempotency(record);
    this.#events.append(events);
    for (const [hash, body] of trees) this.#trees.set(hash, body);
  }

  async getTreeObjects(hashes: readonly string[]): Promise<Map<string, Uint8Array>> {
    const found = new Map<string, Uint8Array>();
    for (const hash of hashes) {
      const body = this.#trees.get(hash);
      if (body) found.set(hash, new Uint8Array(body));
    }
    return found;
  }

  async listEvents(query: EventQuery): Promise<RuntimeEvent[]> {
    return this.#events.list(query);
  }

  async lastEventId(): Promise<number> {
    return this.#events.lastEventId;
  }

  async pruneEvents(beforeMs: number): Promise<number> {
    return this.#events.prune(beforeMs);
  }

  async getWebhookCursor(webhookId: string): Promise<WebhookCursor | undefined> {
    return this.#webhooks.cursor(webhookId);
  }

  async listWebhookCursors(): Promise<WebhookCursor[]> {
    return this.#webhooks.cursors();
  }

  async recordWebhookProgress(progress: WebhookProgress): Promise<void> {
    this.#fleet.assertFences(progress.fences);
    const deliveries = (progress.deliveries ?? []).map(immutableCopy);
    this.#webhooks.record(deliveries, progress.cursor && immutableCopy(progress.cursor));
  }

  async listWebhookDeliveries(query: WebhookDeliveryQuery): Promise<WebhookDelivery[]> {
    return this.#webhooks.list(query);
  }

  async pruneWebhookDeliveries(beforeMs: number): Promise<number> {
    return this.#webhooks.prune(beforeMs);
  }

  async listIntents(): Promise<ProviderIntent[]> {
    return [...this.#intents.values()].sort((a, b) => a.createdAtMs - b.createdAtMs || (a.intentId < b.intentId ? -1 : 1));
  }

  async claimIdempotencyKey(record: IdempotencyRecord): Promise<IdempotencyRecord | undefined> {
    const existing = this.#idempotency.get(record.key);
    if (existing && existing.expiresAtMs > record.createdAtMs) return existing;
    this.#setIdempotency(immutableCopy(record));
    return undefined;
  }

  async putIdempotencyRecord(record: IdempotencyRecord): Promise<void> {
    this.#setIdempotency(immutableCopy(record));
  }

  async takeOverIdempotencyKey(abandoned: IdempotencyRecord, claim: IdempotencyRecord): Promise<boolean> {
    const stored = this.#idempotency.get(abandoned.key);
    if (!stored || !isSameClaim(stored, abandoned)) return false;
    this.#setIdempotency(immutableCopy(claim));
    return true;
  }

  async deleteIdempotencyKey(key: string): Promise<void> {
    this.#deleteIdempotency(key);
  }

  async deleteExpiredIdempotencyKeys(nowMs: number): Promise<number> {
    let removed = 0;
    for (const [key, record] of this.#idempotency) {
      if (record.expiresAtMs <= nowMs) {
        this.#deleteIdempotency(key);
        removed += 1;
      }
    }
    return removed;
  }

  async evictIdempotencyRecords(maxTotalBytes: number): Promise<number> {
    if (this.#idempotencyBytes <= maxTotalBytes) return 0;
    const oldestFirst = [...this.#idempotency.values()]
      .filter((record) => record.state === 'completed')
      .sort((a, b) => a.createdAtMs - b.createdAtMs || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    let removed = 0;
    for (const record of oldestFirst) {
      if (this.#idempotencyBytes <= maxTotalBytes) break;
      this.#deleteIdempotency(record.key);
      removed += 1;
    }
    return removed;
  }

  /** Keeps `#idempotencyBytes` (the weight of every record) in step with the map. */
  #setIdempotency(record: IdempotencyRecord): void {
    this.#deleteIdempotency(record.key);
    this.#idempotency.set(record.key, record);
    this.#idempotencyBytes += idempotencyRecordBytes(record);
  }

  #deleteIdempotency(key: string): void {
    const existing = this.#idempotency.get(key);
    if (!existing) return;
    this.#idempotency.delete(key);
    this.#idempotencyBytes -= idempotencyRecordBytes(existing);
  }

  async createApiKey(key: StoredApiKey): Promise<boolean> {
    if (this.#apiKeys.has(key.tokenSha256) || [...this.#apiKeys.values()].some((stored) => stored.name === key.name)) return false;
    this.#apiKeys.set(key.tokenSha256, immutableCopy(key));
    return true;
  }

  async findApiKey(tokenSha256: string): Promise<StoredApiKey | undefined> {
    return this.#apiKeys.get(tokenSha256);
  }

  async listApiKeys(): Promise<StoredApiKey[]> {
    return [...this.#apiKeys.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async deleteApiKey(name: string): Promise<boolean> {
    const key = [...this.#apiKeys.values()].find((stored) => stored.name === name);
    return key !== undefined && this.#apiKeys.delete(key.tokenSha256);
  }

  async close(): Promise<void> {}

  acquireLease(request: LeaseRequest): Promise<LeaseGrant> {
    return this.#fleet.acquireLease(request);
  }

  releaseLease(fence: RuntimeFence): Promise<void> {
    return this.#fleet.releaseLease(fence);
  }

  renewLeases(holderId: string, ttlMs: number): Promise<number> {
    return this.#fleet.renewLeases(holderId, ttlMs);
  }

  listBusyRuntimeIds(): Promise<string[]> {
    return this.#fleet.listBusyRuntimeIds();
  }

  claimInstallationId(candidate: string): Promise<string> {
    return this.#fleet.claimInstallationId(candidate);
  }

  registerNode(node: Omit<NodeRecord, 'heartbeatAtMs'>): Promise<void> {
    return this.#fleet.registerNode(node);
  }

  heartbeatNode(nodeId: string, leaseTtlMs: number): Promise<void> {
    return this.#fleet.heartbeatNode(nodeId, leaseTtlMs);
  }

  listNodes(): Promise<NodeRecord[]> {
    return this.#fleet.listNodes();
  }

  storeTimeMs(): Promise<number> {
    return this.#fleet.storeTimeMs();
  }

  #putSession(incoming: SessionRecord): void {
    const previous = this.#sessions.get(incoming.runtimeId);
    const record = withActivityOf(incoming, previous);
    this.#sessions.set(record.runtimeId, record);
    const id = record.runtimeId;
    reindex(this.#childrenByParent, previous?.parentRuntimeId, record.parentRuntimeId, id);
    reindex(this.#sessionsByBackend, previous?.backend?.backendId, record.backend?.backendId, id);
    reindex(this.#sessionsBySourceSnapshot, sourceSnapshotKeyOf(previous), sourceSnapshotKeyOf(record), id);
  }

  #putCheckpoint(incoming: CheckpointRecord): void {
    const previous = this.#checkpoints.get(incoming.checkpointId);
    const previousRef = previous?.backendRef;
    if (previousRef?.providerSnapshotId) {
      this.#checkpointsBySnapshot.remove(snapshotKey(previousRef.providerId, previousRef.providerSnapshotId), incoming.checkpointId);
      this.#snapshotted.remove(SNAPSHOTTED, incoming.checkpointId);
    }
    // Frozen like every record the memory store keeps: reads hand it out as it is.
    const record = Object.freeze(withMarksOf(incoming, previous));
    this.#checkpoints.set(record.checkpointId, record);
    this.#checkpointsByRuntime.add(record.runtimeId, record.checkpointId);
    const ref = record.backendRef;
    if (ref?.providerSnapshotId) {
      this.#checkpointsBySnapshot.add(snapshotKey(ref.providerId, ref.providerSnapshotId), record.checkpointId);
      this.#snapshotted.add(SNAPSHOTTED, record.checkpointId);
    }
  }

  #markCheckpoint(mark: CheckpointMark): void {
    const record = this.#checkpoints.get(mark.checkpointId);
    if (record) this.#checkpoints.set(record.checkpointId, immutableCopy(markedCheckpoint(record, mark)));
  }

  #markSession(mark: SessionMark): void {
    const record = this.#sessions.get(mark.runtimeId);
    if (record) this.#sessions.set(record.runtimeId, immutableCopy(markedSession(record, mark)));
  }

  #lookup<T>(records: Map<string, T>, ids: readonly string[]): T[] {
    return ids.map((id) => records.get(id)!);
  }
}

const SNAPSHOTTED = 'snapshotted';

/** Moves `id` from the `before` key to the `after` key of `index`; nothing to do when they are the same. */
function reindex(index: SortedIdIndex, before: string | null | undefined, after: string | null | undefined, id: string): void {
  if (before === after) return;
  if (before) index.remove(before, id);
  if (after) index.add(after, id);
}

function sourceSnapshotKeyOf(session: SessionRecord | undefined): string | undefined {
  const backend = session?.backend;
  return backend?.sourceSnapshotId ? snapshotKey(backend.providerId, backend.sourceSnapshotId) : undefined;
}

function page<T>(ordered: T[], limit: number, idOf: (item: T) => string): Page<T> {
  const items = ordered.slice(0, limit);
  const last = items.at(-1);
  return { items, nextCursor: ordered.length > limit && last ? idOf(last) : null };
}
