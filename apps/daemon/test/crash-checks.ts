import { isDeepStrictEqual } from 'node:util';
import { CrashLedger, ROUTE_OF, type KnownStatus, type RuntimeEntry, type SentRequest } from './crash-ledger';
import { callDaemon, listAllRuntimes } from './daemon-http';
import type { StoreFileRows } from './store-file-rows';

/** Runs `check` over `items`, a few at a time (a restart has dozens of runtimes to look at). */
async function inBatches<T>(items: T[], check: (item: T) => Promise<void>, size = 4): Promise<void> {
  for (let start = 0; start < items.length; start += size) await Promise.all(items.slice(start, start + size).map(check));
}

/**
 * Every acknowledged runtime and checkpoint is there after the restart: runtimes with their
 * lineage and a status their acknowledged history allows, checkpoints with their runtime, parent
 * and kind, and a provider snapshot while their runtime is not closed.
 */
export async function acknowledgedWorkProblems(url: string, ledger: CrashLedger): Promise<string[]> {
  const problems: string[] = [];
  const statusOf = new Map<string, string>();
  await inBatches([...ledger.runtimes.values()], async (entry) => {
    const detail = await callDaemon(url, `/runtimes/${encodeURIComponent(entry.runtimeId)}`);
    if (detail.status !== 200) return void problems.push(`acknowledged runtime ${entry.runtimeId} is gone: ${detail.status} ${detail.text}`);
    const status = detail.body.runtime.status;
    statusOf.set(entry.runtimeId, status);
    const allowed = ledger.allowedStatuses(entry);
    if (!allowed.includes(status)) problems.push(`runtime ${entry.runtimeId} is ${status}; its acknowledged history allows ${allowed.join(' or ')}`);
    if (detail.body.parent_runtime_id !== entry.parentRuntimeId || detail.body.forked_from_checkpoint_id !== entry.forkedFromCheckpointId) {
      problems.push(`runtime ${entry.runtimeId} lost its lineage: ${detail.body.parent_runtime_id} / ${detail.body.forked_from_checkpoint_id}`);
    }
  });
  await inBatches([...ledger.checkpoints.values()], async (checkpoint) => {
    const view = await callDaemon(url, `/checkpoints/${checkpoint.checkpointId}`);
    if (view.status !== 200) return void problems.push(`acknowledged checkpoint ${checkpoint.checkpointId} is gone: ${view.status} ${view.text}`);
    const { runtime_id, parent_checkpoint_id, kind, has_provider_snapshot } = view.body;
    const expected = { runtime_id: checkpoint.runtimeId, parent_checkpoint_id: checkpoint.parentCheckpointId, kind: checkpoint.kind };
    if (!isDeepStrictEqual({ runtime_id, parent_checkpoint_id, kind }, expected)) {
      problems.push(`checkpoint ${checkpoint.checkpointId} reads ${JSON.stringify({ runtime_id, parent_checkpoint_id, kind })}, acknowledged as ${JSON.stringify(expected)}`);
    }
    if (statusOf.get(checkpoint.runtimeId) !== 'closed' && !has_provider_snapshot) problems.push(`checkpoint ${checkpoint.checkpointId} lost its snapshot`);
  });
  return problems;
}

/**
 * Retries requests with their Idempotency-Key after the restart, as a client would. An
 * acknowledged one must be replayed byte for byte; one whose answer was lost must get a definite
 * answer (a success is then acknowledged work). `duplicateWorkProblems` then shows whether any
 * retry did its work a second time.
 */
export async function idempotentRetryProblems(url: string, ledger: CrashLedger, retries: SentRequest[]): Promise<string[]> {
  const problems: string[] = [];
  for (const request of retries) {
    const label = `retry of ${request.operation} ${request.key}`;
    const original = request.answer;
    let retried;
    try {
      retried = await callDaemon(url, ROUTE_OF[request.operation], request.body, { 'idempotency-key': request.key });
    } catch (error) {
      problems.push(`${label}: no answer (${(error as Error).message})`);
      continue;
    }
    if (original && original.status >= 200 && original.status < 300) {
      if (retried.headers.get('idempotent-replayed') !== 'true' || retried.status !== original.status || retried.text !== original.text) {
        problems.push(`${label}: acknowledged as ${original.status} ${original.text}, the retry answered ${retried.status} ${retried.text} (not a replay)`);
      }
    } else if (retried.status >= 500) {
      problems.push(`${label}: ${retried.status} ${retried.text}`);
    } else if (retried.status < 300) {
      ledger.acknowledge(request, retried.body);
    }
  }
  return problems;
}

/** None of `keys` (Idempotency-Keys just retried) made two runtimes or two checkpoints: each created record carries its key. */
export function duplicateWorkProblems(store: StoreFileRows, keys: Set<string>): string[] {
  const made = new Map<string, { kind: string; key: string; ids: string[] }>();
  const records = [
    ...store.sessions.map((row) => ({ kind: 'runtimes', id: row.runtime_id, metadata: row.metadata })),
    ...store.checkpoints.map((row) => ({ kind: 'checkpoints', id: row.checkpoint_id, metadata: row.metadata })),
  ];
  for (const { kind, id, metadata } of records) {
    const key = JSON.parse(metadata).op_key;
    if (!keys.has(key)) continue;
    const entry = made.get(`${kind} ${key}`) ?? { kind, key, ids: [] as string[] };
    entry.ids.push(id);
    made.set(`${kind} ${key}`, entry);
  }
  return [...made.values()]
    .filter(({ ids }) => ids.length > 1)
    .map(({ kind, key, ids }) => `Idempotency-Key ${key} made ${ids.length} ${kind}: ${ids.join(', ')}`);
}

/**
 * Every runtime the daemon lists is usable or explicitly failed: idle → exec `true` works and
 * every acknowledged write reads back its bytes; paused → resume works (then as idle); failed →
 * it says why and refuses work; closed → stays closed. Runtimes the test never got an answer
 * for are adopted; afterwards the ledger holds what the daemon reports.
 */
export async function usabilityProblems(url: string, ledger: CrashLedger, workers: number): Promise<string[]> {
  const problems: string[] = [];
  const runtimes = await listAllRuntimes(url);
  await inBatches(runtimes, async ({ runtime_id: runtimeId }) => {
    const detail = (await callDaemon(url, `/runtimes/${encodeURIComponent(runtimeId)}`)).body;
    const entry = ledger.runtimes.get(runtimeId) ?? adopt(ledger, detail, workers);
    let status: KnownStatus = detail.runtime.status;
    if (status === 'paused') {
      const resumed = await callDaemon(url, '/runtimes/resume', { runtime_id: runtimeId });
      if (resumed.status !== 200 || resumed.body.runtime.status !== 'idle') return void problems.push(`paused ${runtimeId} did not resume: ${resumed.status} ${resumed.text}`);
      status = 'idle';
    }
    const exec = await callDaemon(url, '/runtimes/exec', { runtime_id: runtimeId, command: 'true' });
    if (status === 'idle') {
      if (exec.status !== 200 || exec.body.exit_code !== 0) problems.push(`idle ${runtimeId} cannot run \`true\`: ${exec.status} ${exec.text}`);
      else problems.push(...(await fileProblems(url, entry)));
    } else if (status === 'failed') {
      if (!detail.last_error) problems.push(`failed ${runtimeId} says nothing about why`);
      if (exec.body?.code !== 'runtime_failed') problems.push(`failed ${runtimeId} accepted exec: ${exec.status} ${exec.text}`);
    } else if (status === 'closed') {
      if (exec.body?.code !== 'runtime_closed') problems.push(`closed ${runtimeId} accepted exec: ${exec.status} ${exec.text}`);
    } else {
      problems.push(`${runtimeId} is ${status} with nothing in flight`);
    }
    ledger.resync(entry, status);
  });
  return problems;
}

async function fileProblems(url: string, entry: RuntimeEntry): Promise<string[]> {
  const problems: string[] = [];
  for (const [path, content] of entry.files) {
    const read = await callDaemon(url, '/runtimes/read-file', { runtime_id: entry.runtimeId, path });
    if (read.status !== 200) problems.push(`acknowledged write ${path} of ${entry.runtimeId} is gone: ${read.status} ${read.text}`);
    else if (read.body.content_base64 !== content) problems.push(`acknowledged write ${path} of ${entry.runtimeId} reads back other bytes`);
  }
  return problems;
}

/** A runtime created by a request whose answer was lost: a checkout child has its checkpoint's files. */
function adopt(ledger: CrashLedger, detail: any, workers: number): RuntimeEntry {
  const runtimeId: string = detail.runtime.runtime_id;
  const owner = [...runtimeId].reduce((sum, char) => sum + char.charCodeAt(0), 0) % workers;
  const entry = ledger.adopt(runtimeId, owner, detail.runtime.status, { parent: detail.parent_runtime_id, forkedFrom: detail.forked_from_checkpoint_id });
  const source = detail.forked_from_checkpoint_id ? ledger.checkpoints.get(detail.forked_from_checkpoint_id) : undefined;
  if (source) entry.files = new Map(source.files);
  return entry;
}

/** Closes every runtime tree (cascade, keep_snapshots false); each close must succeed. */
export async function closeEverythingProblems(url: string): Promise<string[]> {
  const problems: string[] = [];
  for (const { runtime_id: runtimeId } of await listAllRuntimes(url)) {
    const detail = (await callDaemon(url, `/runtimes/${encodeURIComponent(runtimeId)}`)).body;
    if (detail.parent_runtime_id !== null) continue;
    const closed = await callDaemon(url, '/runtimes/close', { runtime_id: runtimeId, cascade: true, keep_snapshots: false });
    if (closed.status !== 200) problems.push(`close of ${runtimeId} answered ${closed.status} ${closed.text}`);
  }
  for (const { runtime_id: runtimeId, status } of await listAllRuntimes(url)) {
    if (status !== 'closed') problems.push(`${runtimeId} is ${status} after every tree was closed`);
  }
  return problems;
}
