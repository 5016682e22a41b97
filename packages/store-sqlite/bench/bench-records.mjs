// Records for the store benchmark: shaped like what RuntimeService writes (ids of core's
// formats, bindings with resources, refs with snapshots shared by clean checkpoints).
import { randomBytes } from 'node:crypto';

const hex = (bytes) => randomBytes(bytes).toString('hex');
const BASE_MS = 1_764_000_000_000;

/** A time-ordered id like core's: 12 hex of ms, 4 of a counter, 16 random. */
export function orderedHex(sequence) {
  return (BASE_MS + sequence).toString(16).padStart(12, '0') + '0000' + hex(8);
}

/** A JSON session_state of about `bytes` bytes: an agent's turn counter and message history. */
export function sessionState(bytes, turn) {
  const message = { role: 'assistant', text: 'lorem ipsum dolor sit amet, consectetur adipiscing elit ' };
  const perMessage = JSON.stringify(message).length + 1;
  return { turn, messages: Array.from({ length: Math.max(1, Math.round(bytes / perMessage)) }, () => message) };
}

export function runtimeRecord(runtimeId, { stateBytes, status = 'idle', parentRuntimeId = null, sourceSnapshotId = null, headCheckpointId = null }) {
  const bound = status === 'idle';
  return {
    runtimeId,
    conversationId: `conversation-${runtimeId.slice(-6)}`,
    senderId: 'bench-agent',
    status,
    providerId: 'memory',
    providerOptions: { template: 'python-3.12' },
    backend: bound
      ? { backendId: `bkd_${hex(16)}`, providerId: 'memory', resource: { sandboxId: `sbx-${hex(8)}` }, sourceSnapshotId }
      : null,
    sessionState: sessionState(stateBytes, 1),
    metadata: { team: 'bench', priority: 3 },
    parentRuntimeId,
    forkedFromCheckpointId: null,
    headCheckpointId,
    pausedCheckpointId: status === 'paused' ? headCheckpointId : null,
    lastError: null,
    keepSnapshots: false,
    createdAtMs: BASE_MS,
    updatedAtMs: BASE_MS,
  };
}

export function checkpointRecord(checkpointId, runtime, { parentCheckpointId, snapshotId, kind = 'checkpoint', stateBytes }) {
  return {
    checkpointId,
    runtimeId: runtime.runtimeId,
    parentCheckpointId,
    kind,
    name: null,
    metadata: { step: 'bench' },
    createdAtMs: BASE_MS,
    session: {
      conversationId: runtime.conversationId,
      senderId: runtime.senderId,
      providerId: runtime.providerId,
      providerOptions: runtime.providerOptions,
      sessionState: sessionState(stateBytes, 2),
      metadata: runtime.metadata,
    },
    backendRef: {
      refId: `bcp_${hex(16)}`,
      providerId: 'memory',
      sourceBackendId: runtime.backend?.backendId ?? `bkd_${hex(16)}`,
      providerSnapshotId: snapshotId,
      providerSnapshotNames: snapshotId ? [`snapshot-${snapshotId}`] : [],
      snapshotDeletedAtMs: snapshotId ? null : BASE_MS,
      createdAtMs: BASE_MS,
    },
  };
}

/**
 * Fills `store` with `runtimes` runtimes of `checkpointsPerRuntime` checkpoints each, one
 * transaction per batch: runtimes first, then their checkpoints, then their heads. Every other
 * checkpoint reuses its predecessor's snapshot (a clean checkpoint); one runtime in ten is a
 * checkout child bound to a snapshot of an earlier runtime; one in ten is paused, one closed.
 * Returns the sizes after the runtimes and after the checkpoints.
 */
export async function populate(store, { runtimes, checkpointsPerRuntime, stateBytes, batchRuntimes = 500, sizeOf }) {
  const records = [];
  let sequence = 0;
  for (let index = 0; index < runtimes; index += 1) {
    const status = index % 10 === 3 ? 'paused' : index % 10 === 7 ? 'closed' : 'idle';
    const parent = index % 10 === 5 && index > 10 ? records[index - 5] : null;
    const runtime = runtimeRecord(`rt_${orderedHex(index)}`, {
      stateBytes,
      status,
      parentRuntimeId: parent?.runtime.runtimeId ?? null,
      sourceSnapshotId: parent ? parent.checkpoints[0].backendRef.providerSnapshotId : null,
    });
    const checkpoints = [];
    for (let n = 0; n < checkpointsPerRuntime; n += 1) {
      const previous = checkpoints.at(-1);
      const reuse = n % 2 === 1 && previous;
      checkpoints.push(
        checkpointRecord(`rtcp_${orderedHex(sequence++)}`, runtime, {
          parentCheckpointId: previous?.checkpointId ?? null,
          snapshotId: reuse ? previous.backendRef.providerSnapshotId : `snap_${hex(12)}`,
          kind: status === 'paused' && n === checkpointsPerRuntime - 1 ? 'pause' : 'checkpoint',
          stateBytes,
        }),
      );
    }
    records.push({ runtime, checkpoints });
  }
  const batches = (from) => Array.from({ length: Math.ceil(records.length / batchRuntimes) }, (_, i) => from(records.slice(i * batchRuntimes, (i + 1) * batchRuntimes)));

  for (const batch of batches((slice) => slice.map((entry) => ({ ...entry.runtime, pausedCheckpointId: null })))) {
    await store.commit({ sessions: batch });
  }
  const afterRuntimes = sizeOf();
  for (const batch of batches((slice) => slice.flatMap((entry) => entry.checkpoints))) await store.commit({ checkpoints: batch });
  const afterCheckpoints = sizeOf();
  for (const batch of batches((slice) => slice.map(({ runtime, checkpoints }) => {
    const head = checkpoints.at(-1)?.checkpointId ?? null;
    return { ...runtime, headCheckpointId: head, pausedCheckpointId: runtime.status === 'paused' ? head : null };
  }))) {
    await store.commit({ sessions: batch });
  }
  return { records, afterRuntimes, afterCheckpoints };
}
