import type { OwnedResources } from '@runtimectl/provider';
import { Sandbox } from 'e2b';
import type { SdkCaller } from './request-deadline';
import { resourceFromMetadata } from './sandbox-resource';
import { bareSnapshotName, snapshotNamePrefix } from './snapshot-names';

const PAGE_SIZE = 100;

/** Live (running or paused) sandboxes whose metadata matches `metadata`, every page (each under a deadline). */
export async function listSandboxes(api: SdkCaller, metadata: Record<string, string>, pageSize = PAGE_SIZE) {
  // The paginator only keeps options; each page request gets its own deadline signal below.
  const paginator = await api(async ({ signal: _pageSignals, ...options }) => Sandbox.list({ ...options, query: { metadata }, limit: pageSize }));
  const sandboxes = [];
  while (paginator.hasNext) sandboxes.push(...(await api((options) => paginator.nextItems(options))));
  return sandboxes;
}

/** Snapshots (optionally only those named `name`), every page (each under a deadline). */
export async function listSnapshots(api: SdkCaller, name?: string, pageSize = PAGE_SIZE) {
  const paginator = await api(async ({ signal: _pageSignals, ...options }) =>
    Sandbox.listSnapshots({ ...options, limit: pageSize, ...(name !== undefined ? { name } : {}) }),
  );
  const snapshots = [];
  while (paginator.hasNext) snapshots.push(...(await api((options) => paginator.nextItems(options))));
  return snapshots;
}

/**
 * What `installationId` owns at E2B: sandboxes carrying its `runtimectl_installation` metadata
 * (the resource rebuilt from the sandbox id and metadata, the backend id from
 * `runtimectl_backend_id`), and snapshots whose name carries its prefix (`snapshotNamePrefix`).
 */
export async function listOwnedResources(api: SdkCaller, installationId: string): Promise<OwnedResources> {
  const [sandboxes, snapshots] = await Promise.all([listSandboxes(api, { runtimectl_installation: installationId }), listSnapshots(api)]);
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
