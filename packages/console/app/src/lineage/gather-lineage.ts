import type { ApiClient } from '../api/api-client';
import { ApiError } from '../api/api-error';
import type { RetentionVerdict, RuntimeRecord } from '../api/api-types';
import { getRuntime, listAllCheckpoints, listAllRuntimes, retentionPreview } from '../api/runtimectl-api';
import { recordFromDetail } from '../runtimes/use-live-runtimes';
import type { LineageData } from './lineage-data';
import { runtimesOfTree } from './tree-members';

const MAX_ANCESTORS = 256;
const PARALLEL_REQUESTS = 6;

/** Runs `work` over `items` with at most `limit` in flight, keeping the order of results. */
async function mapLimited<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  async function worker() {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

async function findRootRuntimeId(client: ApiClient, runtimeId: string, signal: AbortSignal): Promise<string> {
  let current = runtimeId;
  let detail = await getRuntime(client, current, signal);
  for (let step = 0; step < MAX_ANCESTORS && detail.parent_runtime_id; step += 1) {
    const parent = detail.parent_runtime_id;
    try {
      detail = await getRuntime(client, parent, signal);
    } catch (error) {
      // A parent this key cannot see (scoped keys) or that is gone: the lineage starts here.
      if (error instanceof ApiError && error.status === 404) return current;
      throw error;
    }
    current = parent;
  }
  return current;
}

/** List rows from a daemon without the lineage fields are completed from each runtime's detail. */
async function withLineageFields(client: ApiClient, runtimes: RuntimeRecord[], signal: AbortSignal): Promise<RuntimeRecord[]> {
  if (runtimes.every((runtime) => runtime.parent_runtime_id !== undefined)) return runtimes;
  return mapLimited(runtimes, PARALLEL_REQUESTS, async (runtime) => recordFromDetail(await getRuntime(client, runtime.runtime_id, signal)));
}

async function gatherVerdicts(client: ApiClient, runtimeIds: string[], signal: AbortSignal): Promise<Map<string, RetentionVerdict> | null> {
  const verdicts = new Map<string, RetentionVerdict>();
  try {
    const pages = await mapLimited(runtimeIds, PARALLEL_REQUESTS, (runtimeId) => retentionPreview(client, runtimeId, signal));
    for (const verdict of pages.flat()) verdicts.set(verdict.checkpoint_id, verdict);
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) return null;
    throw error;
  }
  return verdicts;
}

async function snapshottingProviders(client: ApiClient, signal: AbortSignal): Promise<Set<string>> {
  try {
    const answer = await client.get<{ providers: Array<{ provider: string; capabilities: { snapshot?: boolean } }> }>('/providers', {}, signal);
    return new Set(answer.providers.filter((provider) => provider.capabilities.snapshot).map((provider) => provider.provider));
  } catch {
    return new Set();
  }
}

/**
 * Everything the lineage of `runtimeId` needs: its root (walking parents up), every runtime of
 * the tree, each one's checkpoints (all pages), and the retention preview when the key may read it.
 */
export async function gatherLineage(client: ApiClient, runtimeId: string, signal: AbortSignal): Promise<LineageData> {
  const rootRuntimeId = await findRootRuntimeId(client, runtimeId, signal);
  const everyRuntime = await withLineageFields(client, await listAllRuntimes(client, signal), signal);
  const runtimes = runtimesOfTree(everyRuntime, rootRuntimeId);
  if (!runtimes.some((runtime) => runtime.runtime_id === rootRuntimeId)) {
    runtimes.unshift(recordFromDetail(await getRuntime(client, rootRuntimeId, signal)));
  }
  const runtimeIds = runtimes.map((runtime) => runtime.runtime_id);
  const [checkpointLists, verdicts, providers] = await Promise.all([
    mapLimited(runtimeIds, PARALLEL_REQUESTS, (id) => listAllCheckpoints(client, id, signal)),
    gatherVerdicts(client, runtimeIds, signal),
    snapshottingProviders(client, signal),
  ]);
  return { rootRuntimeId, runtimes, checkpoints: checkpointLists.flat(), verdicts, snapshottingProviders: providers };
}
