import type { ProviderCapabilities } from './wire-types';
import type { BackendProviderV1 } from './backend-provider-v1';

/**
 * What each operation does on runtimes of `provider`, derived from which optional methods exist
 * so it can never drift from the implementation. A checkpoint works on every provider (without a
 * `checkpoint` method it records the lineage and session state but no provider snapshot);
 * `snapshot` says whether checkpoints carry a restorable snapshot, `snapshot_kind` what it holds.
 */
export function providerCapabilities(provider: BackendProviderV1): ProviderCapabilities {
  const snapshot = typeof provider.checkpoint === 'function';
  const checkout = typeof provider.checkout === 'function';
  return {
    checkpoint: true,
    snapshot,
    checkout,
    delete_snapshot: typeof provider.deleteSnapshot === 'function',
    pause: snapshot && checkout,
    snapshot_kind: snapshot ? (provider.snapshotKind ?? 'filesystem') : null,
    restore_verification: checkout ? (provider.restoreVerification ?? 'opt_in') : null,
  };
}
