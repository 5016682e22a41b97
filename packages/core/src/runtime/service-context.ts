import type { IdempotencyRecord } from '../store/records';
import type { BackendManager } from '../backend/backend-manager';
import type { SnapshotGuard } from '../backend/snapshot-guard';
import type { ProviderRegistry } from '../provider/provider-registry';
import type { RuntimeStore } from '../store/runtime-store';
import type { IdGenerator } from './ids';
import type { RetentionPolicy } from '../retention/retention-policy';
import type { RuntimeLeases } from './runtime-leases';
import type { IdleActivity } from '../idle/idle-activity';
import type { AutoResumes } from '../idle/auto-resume';
import type { IdleSettings } from '../idle/idle-settings';

export interface ExecSettings {
  /** Applied when a request gives no timeout_ms. */
  defaultTimeoutMs: number;
  /** Bytes kept of stdout and of stderr each. */
  maxOutputBytes: number;
}

export interface FileSettings {
  /** Largest file read-file answers; bigger ones are refused with `payload_too_large` (export streams them). */
  readMaxBytes: number;
}

export interface CheckoutSettings {
  /** Provider creates one N-way checkout (or fork) runs at once. */
  parallelism: number;
}

export interface RetentionSettings {
  /** The daemon's policy; a runtime's own settings override it (SessionRecord.retention). */
  policy: RetentionPolicy;
  /** How often the policy passes (TTL closes, retention) run. */
  intervalMs: number;
}

export interface ExpirySettings {
  /** Whether a runtime closed because it expired keeps its snapshots (close's `keep_snapshots`). */
  keepSnapshots: boolean;
}

export type VerifyRestoresMode = 'auto' | 'always' | 'never';

/** Restore verification (verify-restore.ts). */
export interface RestoreSettings {
  /**
   * The daemon's `verify_restores`, for runtimes without their own `verify`: `auto` follows
   * each provider's declared default (`restoreVerification`), `always` / `never` override it.
   */
  verify: VerifyRestoresMode;
  /** Told of every comparison of a restored workspace with its checkpoint's manifest. Must not throw. */
  observe: (event: { providerId: string; outcome: 'passed' | 'failed' }) => void;
}

/** This node of the fleet (RuntimeServiceOptions.node, with its defaults). */
export interface NodeIdentity {
  nodeId: string;
  /** Lease time-to-live; also how long after its last heartbeat a node counts as dead. */
  leaseMs: number;
  advertiseUrl: string | null;
  version: string;
}

/**
 * What every runtime operation works with; built once by RuntimeService. Under a runtime's lease
 * an operation gets a copy whose `store` (and `backends`) commit with that lease's fence.
 */
export interface ServiceContext {
  store: RuntimeStore;
  registry: ProviderRegistry;
  backends: BackendManager;
  leases: RuntimeLeases;
  node: NodeIdentity;
  guard: SnapshotGuard;
  ids: IdGenerator;
  clock: () => number;
  defaultProvider: string;
  exec: ExecSettings;
  files: FileSettings;
  checkout: CheckoutSettings;
  retention: RetentionSettings;
  expiry: ExpirySettings;
  idle: IdleSettings;
  /** This node's unflushed record of operations per runtime (idle/idle-activity.ts). */
  activity: IdleActivity;
  /** The auto-resumes running on this node, one per runtime (idle/auto-resume.ts). */
  autoResumes: AutoResumes;
  restores: RestoreSettings;
}

/** Filled in by an operation so its metrics can be labelled with the provider it used. */
export interface OperationScope {
  providerId: string | null;
  /** The caller's in-flight Idempotency-Key claim: completed in the operation's own commit. */
  idempotency?: IdempotencyRecord | undefined;
  /** Told how long an auto-resume before the operation took (idle/auto-resume.ts; `server-timing`'s `resume`). */
  onResume?: ((durationMs: number) => void) | undefined;
}
