import type { CheckpointRecord, SessionRecord, StoredRuntimeStatus } from './records';

export interface Page<T> {
  items: T[];
  /** Opaque; pass back as `cursor` for the next page. null on the last page. */
  nextCursor: string | null;
}

export interface SessionListQuery {
  status?: StoredRuntimeStatus;
  limit: number;
  /** The last runtime id of the previous page; runtimes are ordered by id. */
  cursor?: string;
}

export interface CheckpointListQuery {
  limit: number;
  /** The last checkpoint id of the previous page; checkpoints are ordered newest first. */
  cursor?: string;
}

/** Runtimes (sessions). Reads return copies: mutating a result never changes the store. */
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
}

/** Records written together: all or none. Records are upserted by id. */
export interface StoreBatch {
  sessions?: SessionRecord[];
  checkpoints?: CheckpointRecord[];
}

/**
 * The durable state of the control plane. `commit` is the only write and is atomic, so a
 * SQL store implements it as one transaction; an acknowledged commit survives a crash.
 */
export interface RuntimeStore extends SessionStore, CheckpointStore {
  commit(batch: StoreBatch): Promise<void>;
  close(): Promise<void>;
}
