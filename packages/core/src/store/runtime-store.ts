import type { EventStore, NewRuntimeEvent } from './event-log';
import type { ApiKeyStore } from './api-key-store';
import type { WebhookStore } from './webhook-log';
import type { LeaseStore, NodeStore, RuntimeFence } from './fleet-store';
import type { TreeObject } from '../manifest/tree-object';
import type { CheckpointMark, CheckpointRecord, SnapshottedCheckpoint, IdempotencyRecord, ProviderIntent, SessionMark, SessionRecord, StoredRuntimeStatus } from './records';

export interface Page<T> {
  items: T[];
  /** Opaque; pass back as `cursor` for the next page. null on the last page. */
  nextCursor: string | null;
}

export interface SessionListQuery {
  status?: StoredRuntimeStatus;
  /** Only runtimes bound to a backend of this provider (`backend.providerId`). */
  backendProviderId?: string;
  limit: number;
  /** The last runtime id of the previous page; runtimes are ordered by id. */
  cursor?: string;
}

export interface CheckpointListQuery {
  limit: number;
  /** The last checkpoint id of the previous page; checkpoints are ordered newest first. */
  cursor?: string;
}

/**
 * Runtimes (sessions). Records are values: a read returns either a copy (a SQL store parses one
 * per read) or a deeply frozen record the store may share between reads (the memory store), so
 * callers never mutate a result; they build a new record (`{ ...session, status }`) and commit
 * it. Either way, nothing a caller does to a result or to a committed object changes the store.
 */
export interface SessionStore {
  getSession(runtimeId: string): Promise<SessionRecord | undefined>;
  /** Ordered by runtime id ascending. */
  listSessions(query: SessionListQuery): Promise<Page<SessionRecord>>;
  /** Runtimes whose parent_runtime_id is `runtimeId` (checkout children), any status. */
  listChildSessions(runtimeId: string): Promise<SessionRecord[]>;
  /** Runtimes bound to a backend created from this provider snapshot. */
  listSessionsBySourceSnapshot(providerId: string, snapshotId: string): Promise<SessionRecord[]>;
  /** Runtimes whose binding names this backend (several runtimes may share one). */
  listSessionsByBackend(backendId: string): Promise<SessionRecord[]>;
  /** How many runtimes have each stored status (for metrics). */
  countSessionsByStatus(): Promise<Record<StoredRuntimeStatus, number>>;
  /** How many runtimes, not closed, each node is home of (`homeNodeId`); nodes with none are absent. */
  countSessionsByHomeNode(): Promise<Record<string, number>>;
}

/** Runtime checkpoints. Checkpoint ids are time-ordered, so id order is creation order. */
export interface CheckpointStore {
  getCheckpoint(checkpointId: string): Promise<CheckpointRecord | undefined>;
  /** A runtime's checkpoints, newest first. */
  listCheckpoints(runtimeId: string, query: CheckpointListQuery): Promise<Page<CheckpointRecord>>;
  /** Every checkpoint whose backend ref names this provider snapshot (shared snapshots). */
  listCheckpointsBySnapshot(providerId: string, snapshotId: string): Promise<CheckpointRecord[]>;
  /** The provider snapshot ids this runtime's checkpoints still reference. */
  listSnapshotIdsOfRuntime(runtimeId: string): Promise<Array<{ providerId: string; snapshotId: string }>>;
  /**
   * Checkpoints whose provider snapshot still exists, of every runtime, by checkpoint id
   * ascending, as the narrow facts a retention pass plans on (it reads them all).
   */
  listSnapshottedCheckpoints(query: SnapshottedCheckpointQuery): Promise<Page<SnapshottedCheckpoint>>;
}

export interface SnapshottedCheckpointQuery {
  limit: number;
  /** The last checkpoint id of the previous page. */
  cursor?: string;
}

/**
 * Records written together: all or none. Records are upserted by id. By the end of a batch
 * every id a record points at exists (a checkpoint's runtime; a session's parent runtime and its
 * head, paused and forked-from checkpoints), so a SQL store may enforce foreign keys at commit.
 */
export interface StoreBatch {
  sessions?: SessionRecord[];
  checkpoints?: CheckpointRecord[];
  /** Pins and uses of checkpoints, applied after `checkpoints` (which never change marks). */
  checkpointMarks?: CheckpointMark[];
  /** Runtimes' last activity, applied after `sessions` (which never change it); unknown runtime ids are ignored. */
  sessionMarks?: SessionMark[];
  /** Intents to record (upserted by intent id). */
  intents?: ProviderIntent[];
  /** Intents the batch accounts for; unknown ids are ignored. */
  resolvedIntentIds?: string[];
  /**
   * Idempotency-Key records written with the state they describe (upserted by key), so a crash
   * can never leave an operation committed while its key still reads "in flight".
   */
  idempotencyRecords?: IdempotencyRecord[];
  /** Leases this commit is made under: refused whole with LeaseLostError unless each is still an unexpired lease. */
  fences?: RuntimeFence[];
  /** Events to append, in this order, with ids the store assigns (see event-log.ts). */
  events?: NewRuntimeEvent[];
  /**
   * Manifest tree objects (see manifest/tree-object.ts), inserted unless their hash is stored
   * already: content-addressed, so an existing one is the same bytes and costs nothing.
   */
  treeObjects?: TreeObject[];
}

/** Content-addressed manifest trees (see manifest/tree-object.ts). Never deleted: a tree is shared by every checkpoint naming it. */
export interface TreeObjectStore {
  /** The stored bodies of those of `hashes` the store holds (the others are absent from the map). */
  getTreeObjects(hashes: readonly string[]): Promise<Map<string, Uint8Array>>;
}

/** Provider calls recorded before they run (see ProviderIntent). */
export interface IntentStore {
  /** Every unresolved intent, oldest first. */
  listIntents(): Promise<ProviderIntent[]>;
}

/** Responses kept for requests sent with an Idempotency-Key. */
export interface IdempotencyStore {
  /**
   * Inserts `record` unless a live (unexpired) record has its key. Resolves undefined when it
   * inserted, else the existing record, unchanged. Atomic: of two concurrent claims one wins.
   */
  claimIdempotencyKey(record: IdempotencyRecord): Promise<IdempotencyRecord | undefined>;
  /** Upserts by key (completing this process's claim). */
  putIdempotencyRecord(record: IdempotencyRecord): Promise<void>;
  /**
   * Replaces `abandoned` (an in-flight claim whose owner is gone) by `claim`, only if the stored
   * record is still that claim (same key, owner and creation time, still in flight). Resolves
   * whether it did. Atomic: of retries racing to take one claim over, exactly one wins.
   */
  takeOverIdempotencyKey(abandoned: IdempotencyRecord, claim: IdempotencyRecord): Promise<boolean>;
  /** Forgets a key (a request whose outcome must not be replayed). Unknown keys are ignored. */
  deleteIdempotencyKey(key: string): Promise<void>;
  /** Removes records that expired at or before `nowMs`; resolves how many. */
  deleteExpiredIdempotencyKeys(nowMs: number): Promise<number>;
  /**
   * Bounds the space the records take: while all records together weigh more than
   * `maxTotalBytes` (each by `idempotencyRecordBytes`), deletes the oldest completed record
   * (smallest `createdAtMs`, then smallest key). Claims in flight count but are never deleted.
   * Resolves how many records it deleted. Atomic with respect to the other methods.
   */
  evictIdempotencyRecords(maxTotalBytes: number): Promise<number>;
}

/**
 * The durable state of the control plane. `commit` is the only write of runtime state and is
 * atomic, so a SQL store implements it as one transaction; an acknowledged commit survives a
 * crash. Ids compare in byte order (a SQL store needs a binary collation).
 */
export interface RuntimeStore extends SessionStore, CheckpointStore, TreeObjectStore, IntentStore, IdempotencyStore, LeaseStore, NodeStore, EventStore, WebhookStore, ApiKeyStore {
  commit(batch: StoreBatch): Promise<void>;
  close(): Promise<void>;
}
