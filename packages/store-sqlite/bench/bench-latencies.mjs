// Latency sampling shared by the store benchmarks (SQLite here, PostgreSQL in
// packages/store-postgres via the repository's bench): the same operations on a big and an
// empty store, interleaved, summarised as percentiles in milliseconds.
import { RuntimeService } from '@runtimectl/core';
import { createMemoryProvider } from '@runtimectl/testkit/memory-provider';
import { checkpointRecord, orderedHex, runtimeRecord } from './bench-records.mjs';

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
export function summary(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    p50: quantile(sorted, 0.5),
    p95: quantile(sorted, 0.95),
    mean: samples.reduce((a, b) => a + b, 0) / samples.length,
    p25: quantile(sorted, 0.25),
    p75: quantile(sorted, 0.75),
    samples: sorted.length,
  };
}
export async function timed(fn) {
  const startedAt = performance.now();
  await fn();
  return performance.now() - startedAt;
}

/**
 * The same store calls and service operations on a big and an empty store, `iterations` times
 * each, alternating which goes first. `records` are what `populate` wrote into the big one; the
 * empty one gets exactly the runtime under test and nothing else. Any RuntimeStore: the SQLite
 * and the PostgreSQL benches share it. Leaves the stores open.
 */
export async function measureLatencies({ stores, records, runtimes: RUNTIMES, iterations: ITERATIONS, stateBytes: STATE_BYTES, sequence: firstSequence }) {
  const sessionStateOf = () => ({ turn: 1, notes: 'x'.repeat(STATE_BYTES) });
  // The runtime under test: idle, 10 checkpoints, one checkout child bound to its first snapshot.
  // The empty file gets exactly these records and nothing else.
  const targetIndex = records.findIndex((entry, index) => entry.runtime.status === 'idle' && records[index + 5]?.runtime.parentRuntimeId === entry.runtime.runtimeId && index >= RUNTIMES / 2);
  const target = records[targetIndex];
  const child = records[targetIndex + 5].runtime;
  const targets = {};
  for (const [name, store] of Object.entries(stores)) {
    if (name === 'empty' && !(await store.getSession(target.runtime.runtimeId))) {
      await store.commit({ sessions: [{ ...target.runtime, headCheckpointId: null }, { ...child, headCheckpointId: null }] });
      await store.commit({ checkpoints: target.checkpoints, sessions: [{ ...target.runtime, headCheckpointId: target.checkpoints.at(-1).checkpointId }] });
    }
    const session = await store.getSession(target.runtime.runtimeId);
    targets[name] = { session, snapshotId: target.checkpoints[0].backendRef.providerSnapshotId };
  }
  const results = {};
  /** Times `fn` on both files, alternating which goes first; `before` runs untimed. */
  const sample = async (label, fn, before = async () => {}) => {
    const samples = { big: [], empty: [] };
    for (let i = 0; i < ITERATIONS; i += 1) {
      for (const name of i % 2 === 0 ? ['big', 'empty'] : ['empty', 'big']) {
        await before(name, i);
        samples[name].push(await timed(() => fn(name, i)));
      }
    }
    results[label] = { big: summary(samples.big), empty: summary(samples.empty) };
  };
  let sequence = firstSequence;
  await sample('store.getSession', (name) => stores[name].getSession(targets[name].session.runtimeId));
  await sample('store.listCheckpointsBySnapshot', (name) => stores[name].listCheckpointsBySnapshot('memory', targets[name].snapshotId));
  await sample('store.listSessionsBySourceSnapshot', (name) => stores[name].listSessionsBySourceSnapshot('memory', targets[name].snapshotId));
  await sample('store.commit(checkpoint + session)', async (name) => {
    const session = targets[name].session;
    const checkpoint = checkpointRecord(`rtcp_${orderedHex(sequence++)}`, session, {
      parentCheckpointId: session.headCheckpointId, snapshotId: `snap_bench_${sequence}`, stateBytes: STATE_BYTES,
    });
    targets[name].session = { ...session, headCheckpointId: checkpoint.checkpointId };
    await stores[name].commit({ checkpoints: [checkpoint], sessions: [targets[name].session] });
  });
  await sample('store.commit(new session)', async (name) => {
    const parent = targets[name].session;
    const child = runtimeRecord(`${parent.runtimeId}:checkout:${orderedHex(sequence++)}`, {
      // A snapshot id of its own, so the lookups measured later do not grow with every iteration.
      stateBytes: STATE_BYTES, parentRuntimeId: parent.runtimeId, sourceSnapshotId: `snap_child_${sequence}`, headCheckpointId: parent.headCheckpointId,
    });
    await stores[name].commit({ sessions: [child] });
  });

  // Full service operations over the memory provider: the provider cost is the same for both.
  const provider = createMemoryProvider();
  const services = {};
  const runtimes = {};
  for (const [name, store] of Object.entries(stores)) {
    services[name] = new RuntimeService({ store, providers: [provider], defaultProvider: 'memory' });
    runtimes[name] = (await services[name].open({ conversation_id: 'bench', sender_id: 'bench', session_state: sessionStateOf() })).runtime.runtime_id;
  }
  const lastCheckpoint = {};
  await sample(
    'RuntimeService.checkpoint',
    async (name) => {
      lastCheckpoint[name] = (await services[name].checkpoint({ runtime_id: runtimes[name] })).checkpoint_id;
    },
    // A write first (untimed), so every checkpoint takes a real provider snapshot.
    (name) => services[name].writeFile({ runtime_id: runtimes[name], path: 'turn.txt', content_base64: Buffer.from(String(sequence++)).toString('base64') }),
  );
  await sample('RuntimeService.checkout', (name) => services[name].checkout({ checkpoint_id: lastCheckpoint[name] }));
  return results;
}
