import type { Api, Reply } from './http';
import { outcomeOf } from './error-shape';

/** A small seeded generator (mulberry32), so a run can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One request of the workload, as the client saw it. */
export interface OperationRecord {
  client: number;
  operation: string;
  /** Runtimes whose lock the operation takes (checkout: its checkpoint's runtime). Empty for lock-free ones. */
  locks: string[];
  startedAt: number;
  endedAt: number;
  status: number;
  outcome: string;
  /** The first runtime whose lock it takes (data and control operations; checkout: its checkpoint's runtime). */
  target?: string;
  /** write-file: what it wrote, so a test can check that an acknowledged write is still there. */
  written?: { path: string; content: string };
  /** A refusal's answer (its first 300 characters), so a failure report can say what happened. */
  answer?: string;
}

/** Shared, growing knowledge of the clients: runtimes and checkpoints (with the runtime each belongs to). */
export class WorkloadPool {
  readonly runtimes: string[] = [];
  readonly checkpoints: Array<{ checkpointId: string; runtimeId: string }> = [];

  constructor(
    initial: string[],
    readonly maxRuntimes: number,
  ) {
    this.runtimes.push(...initial);
  }
}

type Step = { operation: string; locks: string[]; send: () => Promise<Reply>; onOk?: (reply: Reply) => void; written?: OperationRecord['written'] };

const SEED_FILE = 'seed.txt';

/** Chooses one operation for a client; weights favour data operations, as agents do. */
function chooseStep(api: Api, pool: WorkloadPool, random: () => number, client: number): Step {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const runtimeId = pick(pool.runtimes);
  const post = (route: string, body: unknown) => () => api.post(route, body, { timeoutMs: 60_000 });
  const table: Array<[number, () => Step]> = [
    [
      5,
      () => {
        const written = { path: `c${client}.txt`, content: String(random()) };
        const body = { runtime_id: runtimeId, path: written.path, content_base64: Buffer.from(written.content).toString('base64') };
        return { operation: 'write-file', locks: [runtimeId], written, send: post('/api/v1/runtimes/write-file', body) };
      },
    ],
    [4, () => ({ operation: 'read-file', locks: [runtimeId], send: post('/api/v1/runtimes/read-file', { runtime_id: runtimeId, path: SEED_FILE }) })],
    [2, () => ({ operation: 'stat', locks: [runtimeId], send: post('/api/v1/runtimes/stat', { runtime_id: runtimeId, path: SEED_FILE }) })],
    [2, () => ({ operation: 'exec', locks: [runtimeId], send: post('/api/v1/runtimes/exec', { runtime_id: runtimeId, command: `echo ${client} >> log.txt`, timeout_ms: 30_000 }) })],
    [1, () => ({ operation: 'get', locks: [], send: () => api.get(`/api/v1/runtimes/${encodeURIComponent(runtimeId)}`) })],
    [
      3,
      () => ({
        operation: 'checkpoint',
        locks: [runtimeId],
        send: post('/api/v1/runtimes/checkpoint', { runtime_id: runtimeId }),
        onOk: (reply) => pool.checkpoints.push({ checkpointId: (reply.json as { checkpoint_id: string }).checkpoint_id, runtimeId }),
      }),
    ],
    [1, () => ({ operation: 'pause', locks: [runtimeId], send: post('/api/v1/runtimes/pause', { runtime_id: runtimeId }) })],
    [1, () => ({ operation: 'resume', locks: [runtimeId], send: post('/api/v1/runtimes/resume', { runtime_id: runtimeId }) })],
  ];
  if (pool.checkpoints.length > 0) {
    const target = pick(pool.checkpoints);
    if (pool.runtimes.length < pool.maxRuntimes) {
      table.push([
        1,
        () => ({
          operation: 'checkout',
          locks: [target.runtimeId],
          send: post('/api/v1/runtimes/checkout', { checkpoint_id: target.checkpointId }),
          onOk: (reply) => pool.runtimes.push((reply.json as { runtime: { runtime_id: string } }).runtime.runtime_id),
        }),
      ]);
    }
    table.push([0.5, () => ({ operation: 'delete-snapshot', locks: [], send: post('/api/v1/runtimes/checkpoint/delete-snapshot', { checkpoint_id: target.checkpointId }) })]);
  }
  if (runtimeId.includes(':checkout:')) {
    table.push([0.3, () => ({ operation: 'close', locks: [runtimeId], send: post('/api/v1/runtimes/close', { runtime_id: runtimeId }) })]);
  }
  const total = table.reduce((sum, [weight]) => sum + weight, 0);
  let at = random() * total;
  for (const [weight, make] of table) {
    at -= weight;
    if (at <= 0) return make();
  }
  return table[0]![1]();
}

/**
 * Runs `clients` concurrent clients, each sending one request at a time, chosen at random, until
 * `durationMs` has passed (each finishes the request it has in flight). Bounded: at most
 * `maxOperationsPerClient` requests per client.
 */
export async function runMixedWorkload(
  api: Api,
  pool: WorkloadPool,
  options: {
    clients: number;
    durationMs: number;
    seed: number;
    maxOperationsPerClient: number;
    /** How a reply is classified (default `outcomeOf`); a fleet test also meets replies its balancer made. */
    outcome?: (reply: Reply) => string;
  },
): Promise<OperationRecord[]> {
  const records: OperationRecord[] = [];
  const stopAt = Date.now() + options.durationMs;
  const client = async (index: number) => {
    const random = seededRandom(options.seed + index);
    for (let count = 0; count < options.maxOperationsPerClient && Date.now() < stopAt; count += 1) {
      const step = chooseStep(api, pool, random, index);
      const startedAt = performance.now();
      const reply = await step.send();
      const endedAt = performance.now();
      const outcome = (options.outcome ?? outcomeOf)(reply);
      if (outcome === 'ok') step.onOk?.(reply);
      records.push({
        client: index,
        operation: step.operation,
        locks: step.locks,
        startedAt,
        endedAt,
        status: reply.status,
        outcome,
        ...(step.locks[0] ? { target: step.locks[0] } : {}),
        ...(step.written ? { written: step.written } : {}),
        ...(outcome === 'ok' ? {} : { answer: reply.text.slice(0, 300) }),
      });
    }
  };
  await Promise.all(Array.from({ length: options.clients }, (_, index) => client(index)));
  return records;
}

/**
 * session_busy answers that no other request explains: one that took the same runtime's lock
 * and was in flight (client-side) at the same time. Client-side intervals contain the
 * server-side ones, so a true server-side overlap is always found.
 */
export function unexplainedBusy(records: OperationRecord[]): OperationRecord[] {
  const byRuntime = new Map<string, OperationRecord[]>();
  for (const record of records) for (const id of record.locks) byRuntime.set(id, [...(byRuntime.get(id) ?? []), record]);
  return records.filter(
    (record) =>
      record.outcome === 'session_busy' &&
      !record.locks.some((id) =>
        (byRuntime.get(id) ?? []).some((other) => other !== record && other.startedAt < record.endedAt && record.startedAt < other.endedAt),
      ),
  );
}

/** How many records fall under each key (an outcome, an operation …), keys sorted. */
export function countBy(records: OperationRecord[], key: (record: OperationRecord) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const record of records) counts[key(record)] = (counts[key(record)] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
}

/** Client-side latency percentiles (ms) per operation: reported, never asserted. */
export function latencyPercentiles(records: OperationRecord[]): Record<string, { p50: number; p95: number; max: number }> {
  const byOperation = new Map<string, number[]>();
  for (const record of records) byOperation.set(record.operation, [...(byOperation.get(record.operation) ?? []), record.endedAt - record.startedAt]);
  const at = (sorted: number[], fraction: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!);
  return Object.fromEntries(
    [...byOperation].sort(([a], [b]) => a.localeCompare(b)).map(([operation, durations]) => {
      const sorted = durations.sort((a, b) => a - b);
      return [operation, { p50: at(sorted, 0.5), p95: at(sorted, 0.95), max: Math.round(sorted[sorted.length - 1]!) }];
    }),
  );
}

export { SEED_FILE };
