import type { BackendResource } from '@runtimectl/provider';
import type { JsonValue, Metadata } from '../wire/common';
import type { CheckpointKind } from '../wire/checkpoints';
import type { RetentionOverride } from '../retention/retention-policy';

/** Statuses a store holds. `running` is never stored: it is derived from the in-process lock. */
export type StoredRuntimeStatus = 'idle' | 'paused' | 'failed' | 'closed';

/** Which live provider backend carries a runtime. Internal: never on the wire. */
export interface BackendBinding {
  backendId: string;
  providerId: string;
  resource: BackendResource;
  /** The provider snapshot the backend was created from (checkout/resume); keeps it alive. */
  sourceSnapshotId: string | null;
  /**
   * Fleet (clean/dirty state in the store): a checkpoint whose backend ref captures this backend
   * as it is now — set by the commit of a checkpoint, checkout or resume, cleared (committed
   * before the mutation runs) by the first mutating operation after it. null/absent: dirty or
   * unknown, the next checkpoint must ask the provider for a snapshot.
   */
  cleanCheckpointId?: string | null;
  /**
   * true: no process of the backend's commands can be running — it was created empty, or its
   * last snapshot was taken with none counted (`BackendCheckpointRef.backgroundProcesses === 0`),
   * and no exec ran since (only exec starts processes; file writes do not). Its next checkpoint
   * then needs no count from the provider. Cleared, before it reaches the provider, by the first
   * exec. null/absent/false: something may run; the next checkpoint counts.
   */
  nothingRunning?: boolean | null;
}

/** The runtime as stored (the seed's SessionRecord; v1: runtime id == session id). */
export interface SessionRecord {
  runtimeId: string;
  conversationId: string;
  senderId: string;
  status: StoredRuntimeStatus;
  providerId: string;
  providerOptions: Record<string, unknown>;
  backend: BackendBinding | null;
  sessionState: JsonValue;
  metadata: Metadata;
  parentRuntimeId: string | null;
  forkedFromCheckpointId: string | null;
  /** The runtime's latest checkpoint: the parent of its next one. */
  headCheckpointId: string | null;
  /** Set while paused: the pause checkpoint resume starts from. */
  pausedCheckpointId: string | null;
  lastError: string | null;
  /** Closed with keep_snapshots: its checkpoints keep their provider snapshots alive. */
  keepSnapshots: boolean;
  createdAtMs: number;
  updatedAtMs: number;
  /**
   * Fleet: the node whose machine holds this runtime's provider resources when its provider is
   * node-local (local, memory): only that node can operate it, others forward to it. null/absent
   * when every node can reach the provider (E2B).
   */
  homeNodeId?: string | null;
  /** The runtime's own retention settings over the daemon's (retention-policy.ts). null/absent: the daemon's. */
  retention?: RetentionOverride | null;
  /** Whether its restores are verified against the checkpoint's manifest (open's `verify`). null/absent: the daemon's and provider's default. */
  verify?: boolean | null;
  /** TTL: when the daemon closes it (open's `expires_at_ms` / `max_lifetime_ms`). null/absent: never. */
  expiresAtMs?: number | null;
  /**
   * Idle auto-pause: paused after this long without an operation; 0 turns it off for this
   * runtime. null/absent: the daemon's `idle_pause_after_ms`.
   */
  idlePauseAfterMs?: number | null;
  /** Whether an operation on it while paused resumes it first. null/absent: the daemon's `auto_resume`. */
  autoResume?: boolean | null;
  /**
   * The API key that opened it (its name), when one did: a key with `opened_runtimes` reaches the
   * runtimes it opened and their branches. null/absent: opened without a key (auth off) or before
   * keys were recorded. Never changes.
   */
  openedByKey?: string | null;
  /**
   * When an operation on it last ran, as far as the nodes have flushed (idle-activity.ts): set
   * through `StoreBatch.sessionMarks` only, never by the record's upsert. null/absent: none yet.
   */
  lastActiveAtMs?: number | null;
}

/** A provider snapshot as core tracks it (the seed's BackendCheckpointRef). */
export interface BackendCheckpointRef {
  refId: string;
  providerId: string;
  sourceBackendId: string;
  /** null for providers without snapshots (local), and after the snapshot was deleted. */
  providerSnapshotId: string | null;
  providerSnapshotNames: string[];
  /** Set when delete-snapshot or close removed the provider snapshot. */
  snapshotDeletedAtMs: number | null;
  createdAtMs: number;
  /**
   * How many processes of the backend's commands were alive right before the snapshot was taken
   * (`ProviderBackend.backgroundProcesses`, counted under the runtime's exclusive lock). 0: the
   * snapshot is exactly the workspace from then until the next mutating operation, so a clean
   * runtime may reuse it and a backend started from it starts clean. null/absent: the provider
   * could not tell (or the ref is older than the count) — never taken as 0.
   */
  backgroundProcesses?: number | null;
}

/** What a checkpoint captures of the session, restored on checkout. */
export interface SessionSnapshot {
  conversationId: string;
  senderId: string;
  providerId: string;
  providerOptions: Record<string, unknown>;
  sessionState: JsonValue;
  metadata: Metadata;
  /** The runtime's `verify` when it had one: a checkout child inherits it. */
  verify?: boolean | null;
}

export interface CheckpointRecord {
  checkpointId: string;
  runtimeId: string;
  parentCheckpointId: string | null;
  kind: CheckpointKind;
  name: string | null;
  metadata: Metadata;
  createdAtMs: number;
  session: SessionSnapshot;
  backendRef: BackendCheckpointRef | null;
  /**
   * The root tree hash of the workspace's content manifest at this checkpoint (see
   * manifest/build-trees.ts); null/absent when the provider produces no manifest, and for
   * checkpoints recorded before manifests existed.
   */
  manifestRoot?: string | null;
  /**
   * Marks a store keeps beside the record and never takes from an upsert of it (a record read
   * before a mark was set cannot clear it): set through `StoreBatch.checkpointMarks` only.
   * Pinned: no retention policy deletes its snapshot. Absent: not pinned.
   */
  pinned?: boolean;
  /** When its snapshot last started a backend (checkout, resume). Absent/null: never. */
  lastUsedAtMs?: number | null;
}

/**
 * What a retention pass reads of each checkpoint whose provider snapshot still exists: a narrow
 * read (no documents parsed), as `CheckpointStore.listSnapshottedCheckpoints` answers it.
 */
export interface SnapshottedCheckpoint {
  checkpointId: string;
  runtimeId: string;
  createdAtMs: number;
  pinned?: boolean;
  lastUsedAtMs?: number | null;
  backendRef: { providerId: string; providerSnapshotId: string };
}

/** A change of a checkpoint's marks (see CheckpointRecord.pinned): fields left out stay as they are. */
export interface CheckpointMark {
  checkpointId: string;
  pinned?: boolean;
  /** Moves `lastUsedAtMs` forward to this time (never back). */
  usedAtMs?: number;
}

/** A runtime's activity, flushed in a batch: moves `lastActiveAtMs` forward to `activeAtMs` (never back). */
export interface SessionMark {
  runtimeId: string;
  activeAtMs: number;
}

/**
 * A provider call that creates something (a backend, a snapshot), recorded before the call and
 * resolved by the same commit that records its result. One still open after a crash names a
 * resource that may exist at the provider with nothing accounting for it: reconciliation at
 * start-up finds and removes it.
 */
export interface ProviderIntent {
  /** The backend id (kind `backend`) or the backend checkpoint ref id (kind `snapshot`). */
  intentId: string;
  kind: 'backend' | 'snapshot';
  providerId: string;
  runtimeId: string;
  backendId: string;
  createdAtMs: number;
  /** Fleet: the node that recorded it (a dead node's intents are taken over once its leases lapsed). null/absent: unknown (records older than the fleet). */
  nodeId?: string | null;
}

/** The stored outcome of a request sent with an Idempotency-Key. */
export interface IdempotencyRecord {
  key: string;
  /** Digest of the method, route and body: the same key with another request is refused. */
  fingerprint: string;
  state: 'in_flight' | 'completed';
  /** The daemon process that claimed it; a claim left by a process that is gone may be taken over. */
  ownerId: string;
  statusCode: number | null;
  /**
   * The response body, as sent. null while in flight, and on a completed record whose response
   * was too large to keep (a retry is told so, and the work is not repeated).
   */
  responseBody: string | null;
  createdAtMs: number;
  expiresAtMs: number;
}

/** `stored` is still the in-flight claim `claim` (same key, owner and creation time): what a takeover compares. */
export function isSameClaim(stored: IdempotencyRecord, claim: IdempotencyRecord): boolean {
  return stored.state === 'in_flight' && stored.key === claim.key && stored.ownerId === claim.ownerId && stored.createdAtMs === claim.createdAtMs;
}

/**
 * What an Idempotency-Key record weighs toward the stores' total bound: the UTF-8 bytes of its
 * key, fingerprint and response body. Every store measures with this, so the bound means the
 * same everywhere (a SQL store may keep it in a column).
 */
export function idempotencyRecordBytes(record: Pick<IdempotencyRecord, 'key' | 'fingerprint' | 'responseBody'>): number {
  return Buffer.byteLength(record.key) + Buffer.byteLength(record.fingerprint) + (record.responseBody === null ? 0 : Buffer.byteLength(record.responseBody));
}
