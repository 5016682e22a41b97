import type { BackendProviderV1 } from '@runtimectl/core';
import { ConfigError } from '../config/config-error';

interface WithSnapshotStore {
  snapshotStoreMode(): Promise<{ mode: 'copy' | 'layers'; reason?: string }>;
}

function hasSnapshotStore(provider: BackendProviderV1): provider is BackendProviderV1 & WithSnapshotStore {
  return typeof (provider as Partial<WithSnapshotStore>).snapshotStoreMode === 'function';
}

/**
 * The start line's words on how each provider with a choice of snapshot store keeps its
 * snapshots (fs: `layers`, overlay mounts, or `copy`, with why `auto` fell back to copies), after
 * its probe ran. A `snapshot_store = "layers"` this machine cannot honour stops the start (exit 2).
 */
export async function describeSnapshotStores(providers: BackendProviderV1[]): Promise<string | undefined> {
  const choosing = providers.filter(hasSnapshotStore);
  if (choosing.length === 0) return undefined;
  const phrases = await Promise.all(
    choosing.map(async (provider) => {
      const id = provider.providerId;
      let inForce: Awaited<ReturnType<WithSnapshotStore['snapshotStoreMode']>>;
      try {
        inForce = await provider.snapshotStoreMode();
      } catch (error) {
        throw new ConfigError(`providers.${id}.snapshot_store: ${(error as Error).message}`);
      }
      if (inForce.mode === 'layers') return `${id} snapshots: layers (copy-on-write overlay mounts)`;
      return inForce.reason ? `${id} snapshots: copy (layers unavailable: ${inForce.reason})` : `${id} snapshots: copy`;
    }),
  );
  return phrases.join(' · ');
}
