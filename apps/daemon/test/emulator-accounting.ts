import type { EmulatorStateView } from '@runtimectl/e2b-emulator';
import type { StoreFileRows } from './store-file-rows';

/**
 * What is wrong between E2B (the emulator) and the store after start-up reconciliation, both
 * ways: a sandbox or snapshot that no record accounts for is a leak (billed forever); a record
 * whose sandbox or snapshot is gone is a loss. Snapshot keepers as in HTTP-API.md: a checkpoint
 * of a runtime not closed (or closed with keep_snapshots), or the source of a live binding.
 */
export function emulatorAccountingProblems(emulator: EmulatorStateView, store: StoreFileRows): string[] {
  const problems: string[] = [];
  const sessionOf = new Map(store.sessions.map((session) => [session.runtime_id, session]));
  const boundTo = new Map(store.sessions.filter((session) => session.backend_id).map((session) => [session.backend_id!, session]));

  for (const sandbox of emulator.sandboxes) {
    const backendId = sandbox.metadata.runtimectl_backend_id;
    const label = `sandbox ${sandbox.sandboxId} (backend ${backendId}, runtime ${sandbox.metadata.runtimectl_runtime_id})`;
    const session = backendId ? boundTo.get(backendId) : undefined;
    if (!session) problems.push(`${label} is bound to no runtime in the store`);
    else if (session.status === 'closed' || session.status === 'paused') problems.push(`${label} is bound to ${session.runtime_id}, which is ${session.status}`);
    else if (session.runtime_id !== sandbox.metadata.runtimectl_runtime_id) problems.push(`${label} is bound to another runtime, ${session.runtime_id}`);
    else if (JSON.parse(session.backend_resource ?? '{}').sandboxId !== sandbox.sandboxId) problems.push(`${label}: its binding names another sandbox`);
    if (sandbox.state !== 'running') problems.push(`${label} is ${sandbox.state} at E2B (runtimectl never pauses at E2B)`);
  }

  const kept = new Set<string>();
  for (const checkpoint of store.checkpoints) {
    const owner = sessionOf.get(checkpoint.runtime_id);
    if (checkpoint.ref_provider_snapshot_id && (owner?.status !== 'closed' || owner.keep_snapshots === 1)) kept.add(checkpoint.ref_provider_snapshot_id);
  }
  for (const session of store.sessions) {
    if (session.status !== 'closed' && session.backend_source_snapshot_id) kept.add(session.backend_source_snapshot_id);
  }
  for (const snapshot of emulator.snapshots) {
    if (kept.has(snapshot.snapshotId)) continue;
    const referencedBy = store.checkpoints.filter((checkpoint) => checkpoint.ref_provider_snapshot_id === snapshot.snapshotId);
    problems.push(
      `snapshot ${snapshot.snapshotId} (${snapshot.names.join(', ')}) is kept by nothing` +
        (referencedBy.length > 0 ? ` (only closed runtimes' checkpoints name it: ${referencedBy.map((c) => c.checkpoint_id).join(', ')})` : ' (no checkpoint names it)'),
    );
  }

  const sandboxOfBackend = new Set(emulator.sandboxes.map((sandbox) => sandbox.metadata.runtimectl_backend_id));
  const snapshotIds = new Set(emulator.snapshots.map((snapshot) => snapshot.snapshotId));
  for (const checkpoint of store.checkpoints) {
    if (sessionOf.get(checkpoint.runtime_id)?.status === 'closed') continue;
    if (!checkpoint.ref_provider_snapshot_id) problems.push(`checkpoint ${checkpoint.checkpoint_id} of open runtime ${checkpoint.runtime_id} has lost its snapshot`);
    else if (!snapshotIds.has(checkpoint.ref_provider_snapshot_id)) {
      problems.push(`checkpoint ${checkpoint.checkpoint_id} of ${checkpoint.runtime_id} names snapshot ${checkpoint.ref_provider_snapshot_id}, which E2B no longer has`);
    }
  }
  for (const session of store.sessions) {
    if (session.status !== 'idle' || !session.backend_id) continue;
    if (!sandboxOfBackend.has(session.backend_id)) problems.push(`idle runtime ${session.runtime_id} is bound to backend ${session.backend_id}, which has no sandbox`);
  }
  if (store.openIntents > 0) problems.push(`${store.openIntents} provider intents are still open after reconciliation`);
  return problems;
}
