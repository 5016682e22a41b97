import type { OwnedResources } from '@runtimectl/core';
import { Sandbox, type ConnectionOpts } from 'e2b';
import { resourceFromMetadata } from './sandbox-resource';
import { bareSnapshotName, snapshotNamePrefix } from './snapshot-names';

const PAGE_SIZE = 100;

/** Live (running or paused) sandboxes whose metadata matches `metadata`, every page. */
export async function listSandboxes(connection: ConnectionOpts, metadata: Record<string, string>) {
  const paginator = Sandbox.list({ ...connection, query: { metadata }, limit: PAGE_SIZE });
  const sandboxes = [];
  while (paginator.hasNext) sandboxes.push(...(await paginator.nextItems()));
  return sandboxes;
}

/** Snapshots (optionally only those named `name`), every page. */
export async function listSnapshots(connection: ConnectionOpts, name?: string) {
  const paginator = Sandbox.listSnapshots({ ...connection, limit: PAGE_SIZE, ...(name !== undefined ? { name } : {}) });
  const snapshots = [];
  while (paginator.hasNext) snapshots.push(...(await paginator.nextItems()));
  return snapshots;
}

/**
 * What `installationId` owns at E2B: sandboxes carrying its `runtimectl_installation` metadata
 * (the resource rebuilt from the sandbox id and metadata, the backend id from
 * `runtimectl_backend_id`), and snapshots whose name carries its prefix (`snapshotNamePrefix`).
 */
export async function listOwnedResources(connection: ConnectionOpts, installationId: string): Promise<OwnedResources> {
  const [sandboxes, snapshots] = await Promise.all([
    listSandboxes(connection, { runtimectl_installation: installationId }),
    listSnapshots(connection),
  ]);
  const prefix = snapshotNamePrefix(installationId);
  return {
    backends: sandboxes
      .filter((sandbox) => sandbox.metadata.runtimectl_installation === installationId)
      .map((sandbox) => ({
        backendId: sandbox.metadata.runtimectl_backend_id ?? '',
        resource: resourceFromMetadata(sandbox.sandboxId, sandbox.metadata),
      })),
    snapshots: snapshots
      .filter((snapshot) => [snapshot.snapshotId, ...snapshot.names].some((name) => bareSnapshotName(name).startsWith(prefix)))
      .map((snapshot) => ({ snapshotId: snapshot.snapshotId })),
  };
}
