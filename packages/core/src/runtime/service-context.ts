import type { IdempotencyRecord } from '../store/records';
import type { BackendManager } from '../backend/backend-manager';
import type { SnapshotGuard } from '../backend/snapshot-guard';
import type { ProviderRegistry } from '../provider/provider-registry';
import type { RuntimeStore } from '../store/runtime-store';
import type { IdGenerator } from './ids';
import type { RuntimeLocks } from './runtime-locks';

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

/** What every runtime operation works with; built once by RuntimeService. */
export interface ServiceContext {
  store: RuntimeStore;
  registry: ProviderRegistry;
  backends: BackendManager;
  locks: RuntimeLocks;
  guard: SnapshotGuard;
  ids: IdGenerator;
  clock: () => number;
  defaultProvider: string;
  exec: ExecSettings;
  files: FileSettings;
}

/** Filled in by an operation so its metrics can be labelled with the provider it used. */
export interface OperationScope {
  providerId: string | null;
  /** The caller's in-flight Idempotency-Key claim: completed in the operation's own commit. */
  idempotency?: IdempotencyRecord | undefined;
}
