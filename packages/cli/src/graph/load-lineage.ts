import type { RuntimectlClient } from '@runtimectl/client';
import { checkoutRoot, type CheckpointView, type RuntimeDetail } from '@runtimectl/core';
import type { LineageInput } from './lineage-graph';

const PAGE_LIMIT = 500;
const PARALLEL_REQUESTS = 8;

/**
 * Gathers what `log --graph` draws: the runtime, every runtime checked out from it
 * (recursively, closed ones included) and all their checkpoints. Checkout children are named
 * `<root>:checkout:<hex>` (docs/architecture.md), so only runtimes with that prefix are
 * fetched to read their parent_runtime_id.
 */
export async function loadLineage(client: RuntimectlClient, runtimeId: string): Promise<LineageInput> {
  const start = await client.get(runtimeId);
  const prefix = `${checkoutRoot(runtimeId)}:checkout:`;
  const candidateIds: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.list({ limit: PAGE_LIMIT, ...(cursor ? { cursor } : {}) });
    for (const { runtime_id: id } of page.runtimes) if (id.startsWith(prefix) && id !== runtimeId) candidateIds.push(id);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  const candidates = await mapLimited(candidateIds, (id) => client.get(id));

  const runtimes: RuntimeDetail[] = [start];
  const included = new Set([runtimeId]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const candidate of candidates) {
      const id = candidate.runtime.runtime_id;
      if (!included.has(id) && candidate.parent_runtime_id !== null && included.has(candidate.parent_runtime_id)) {
        included.add(id);
        runtimes.push(candidate);
        grew = true;
      }
    }
  }
  const checkpointLists = await mapLimited(runtimes, (detail) => allCheckpoints(client, detail.runtime.runtime_id));
  return { rootRuntimeId: runtimeId, runtimes, checkpoints: checkpointLists.flat() };
}

/** Every checkpoint of a runtime, newest first, following next_cursor. */
export async function allCheckpoints(client: RuntimectlClient, runtimeId: string): Promise<CheckpointView[]> {
  const checkpoints: CheckpointView[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listCheckpoints(runtimeId, { limit: PAGE_LIMIT, ...(cursor ? { cursor } : {}) });
    checkpoints.push(...page.checkpoints);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return checkpoints;
}

async function mapLimited<T, R>(items: readonly T[], map: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await map(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_REQUESTS, items.length) }, worker));
  return results;
}
