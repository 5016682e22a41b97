import type {
  BackendBinding,
  BackendCheckpointRef,
  CheckpointRecord,
  JsonValue,
  SessionRecord,
  SessionSnapshot,
} from '@runtimectl/core';

/**
 * Record builders for the store suite. The suite only commits referentially whole data — a
 * checkpoint's runtime, a session's parent and its head / paused / forked-from checkpoints exist
 * by the end of the batch that names them — so a store may enforce that with foreign keys.
 */

/** `rtcp_` + 32 hex digits of `n`: fixture checkpoint ids sort by `n`, as real ones sort by time. */
export const checkpointIdOf = (n: number): string => `rtcp_${n.toString(16).padStart(32, '0')}`;

/** Runtime ids that sort by `n`. */
export const runtimeIdOf = (n: number): string => `rt-${String(n).padStart(5, '0')}`;

const CREATED_AT_MS = 1_764_000_000_000;

export function sessionRecord(runtimeId: string, overrides: Partial<SessionRecord> = {}): SessionRecord {
  return {
    runtimeId,
    conversationId: 'conversation-1',
    senderId: 'sender-1',
    status: 'idle',
    providerId: 'memory',
    providerOptions: {},
    backend: null,
    sessionState: null,
    metadata: {},
    parentRuntimeId: null,
    forkedFromCheckpointId: null,
    headCheckpointId: null,
    pausedCheckpointId: null,
    lastError: null,
    keepSnapshots: false,
    createdAtMs: CREATED_AT_MS,
    updatedAtMs: CREATED_AT_MS,
    homeNodeId: null,
    ...overrides,
  };
}

export function backendBinding(backendId: string, overrides: Partial<BackendBinding> = {}): BackendBinding {
  return {
    backendId,
    providerId: 'memory',
    resource: { sandboxId: `sbx-${backendId}`, port: 49_152, secure: true, region: null },
    sourceSnapshotId: null,
    cleanCheckpointId: null,
    nothingRunning: null,
    ...overrides,
  };
}

export function backendRef(providerSnapshotId: string | null, overrides: Partial<BackendCheckpointRef> = {}): BackendCheckpointRef {
  return {
    refId: `bcp_${(providerSnapshotId ?? 'none').padEnd(32, '0').slice(0, 32)}`,
    providerId: 'memory',
    sourceBackendId: 'bkd_source',
    providerSnapshotId,
    providerSnapshotNames: providerSnapshotId ? [`snapshot ${providerSnapshotId}`] : [],
    snapshotDeletedAtMs: null,
    createdAtMs: CREATED_AT_MS,
    backgroundProcesses: null,
    ...overrides,
  };
}

export function sessionSnapshotOf(session: SessionRecord): SessionSnapshot {
  return {
    conversationId: session.conversationId,
    senderId: session.senderId,
    providerId: session.providerId,
    providerOptions: session.providerOptions,
    sessionState: session.sessionState,
    metadata: session.metadata,
  };
}

export function checkpointRecord(
  checkpointId: string,
  runtimeId: string,
  overrides: Partial<CheckpointRecord> = {},
): CheckpointRecord {
  return {
    checkpointId,
    runtimeId,
    parentCheckpointId: null,
    kind: 'checkpoint',
    name: null,
    metadata: {},
    createdAtMs: CREATED_AT_MS,
    session: sessionSnapshotOf(sessionRecord(runtimeId)),
    backendRef: null,
    manifestRoot: null,
    ...overrides,
  };
}

/** About 1 MiB of JSON (the session_state cap), mixing ASCII, multi-byte and astral characters. */
export function largeJsonValue(): JsonValue {
  const chunks = Array.from({ length: 3_000 }, (_, index) => ({
    index,
    text: `chunk ${index}: ${'lorem ipsum dolor '.repeat(12)}é日🧪`,
    flags: [index % 2 === 0, null],
  }));
  return { kind: 'large', chunks };
}

/** JSON documents every store must keep exactly: the shapes session_state and metadata take. */
export const JSON_SAMPLES: ReadonlyArray<readonly [label: string, value: JsonValue]> = [
  ['null', null],
  ['a string with quotes, backslashes, newlines and tabs', 'say "hi" \\ back\nslash\ttab'],
  [
    'unicode: accents, CJK, emoji with joiners, RTL, combining marks, line separators',
    'héllo wörld — 日本語 🧪🚀👩🏽‍💻 مرحبا e\u0301 \u2028\u2029 \u0001',
  ],
  ['numbers', [0, -1, 1.5, 0.1, 1e-7, 1.7976931348623157e308, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER]],
  ['booleans', [true, false]],
  ['an empty object and an empty array', { empty: {}, list: [] }],
  ['nested objects with null leaves and unicode keys', { a: { b: { c: [1, { d: null }, 'x'] } }, ключ: 'значение', '🔑': { '': 'empty key' } }],
  ['a large value (~1 MiB)', largeJsonValue()],
];

/**
 * A session with every optional field set, plus what it references: its parent runtime and the
 * parent's checkpoint it was checked out from, and its own head and pause checkpoints.
 */
export function fullyLinkedSession(): { session: SessionRecord; related: { sessions: SessionRecord[]; checkpoints: CheckpointRecord[] } } {
  const parent = sessionRecord('parent-runtime', { status: 'closed', keepSnapshots: true });
  const forkPoint = checkpointRecord(checkpointIdOf(1), parent.runtimeId, { backendRef: backendRef('snap-fork') });
  const runtimeId = `parent-runtime:checkout:${'ab'.repeat(16)}`;
  const head = checkpointRecord(checkpointIdOf(2), runtimeId, { parentCheckpointId: forkPoint.checkpointId, backendRef: backendRef('snap-head') });
  const pause = checkpointRecord(checkpointIdOf(3), runtimeId, { kind: 'pause', parentCheckpointId: head.checkpointId, backendRef: backendRef('snap-pause') });
  const session = sessionRecord(runtimeId, {
    conversationId: 'conversation «ü»',
    senderId: 'sender 🧪',
    status: 'failed',
    providerId: 'memory',
    providerOptions: { template: 'python-3.12', timeoutMs: 30_000, env: { LANG: 'C.UTF-8' }, tags: ['a', 'b'], gpu: null },
    backend: backendBinding('bkd_full', { sourceSnapshotId: 'snap-fork', cleanCheckpointId: head.checkpointId }),
    sessionState: { turn: 7, messages: [{ role: 'user', text: 'héllo 🧪' }], done: false, pending: null },
    metadata: { team: 'agents', nested: { depth: [1, 2, { three: true }] } },
    parentRuntimeId: parent.runtimeId,
    forkedFromCheckpointId: forkPoint.checkpointId,
    headCheckpointId: head.checkpointId,
    pausedCheckpointId: pause.checkpointId,
    lastError: 'its memory backend is gone (sandbox sbx-1 not found)',
    keepSnapshots: true,
    createdAtMs: CREATED_AT_MS + 1,
    updatedAtMs: CREATED_AT_MS + 2,
    homeNodeId: 'node-a',
  });
  return { session, related: { sessions: [parent], checkpoints: [forkPoint, head, pause] } };
}

/** A deterministic shuffle, so commit order never happens to equal the expected read order. */
export function shuffled<T>(items: readonly T[], seed = 7): T[] {
  const result = [...items];
  let state = seed;
  for (let index = result.length - 1; index > 0; index -= 1) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    const other = state % (index + 1);
    [result[index], result[other]] = [result[other]!, result[index]!];
  }
  return result;
}

/** A copy of `record` whose `field` throws when read: no store can persist it. */
export function unreadable<T extends object>(record: T, field: keyof T & string): T {
  const copy = { ...record };
  Object.defineProperty(copy, field, {
    enumerable: true,
    get() {
      throw new Error(`${field} cannot be read (store conformance: a record that fails mid-batch)`);
    },
  });
  return copy;
}
