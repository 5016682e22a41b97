import type { ApiClient } from './api-client';
import type {
  CheckpointView,
  DiffPage,
  NodeView,
  RetentionVerdict,
  RuntimeDetail,
  RuntimeEvent,
  RuntimeRecord,
  TreeEntry,
} from './api-types';
import { collectPages } from './collect-pages';

/** The routes the console calls, typed; each is one request (or all pages of one list). */
export function listAllRuntimes(client: ApiClient, signal?: AbortSignal): Promise<RuntimeRecord[]> {
  return collectPages(
    (cursor) => client.get<{ runtimes: RuntimeRecord[]; next_cursor: string | null }>('/runtimes', { limit: 500, cursor }, signal),
    (page) => page.runtimes,
  );
}

export function getRuntime(client: ApiClient, runtimeId: string, signal?: AbortSignal): Promise<RuntimeDetail> {
  return client.get<RuntimeDetail>(`/runtimes/${encodeURIComponent(runtimeId)}`, {}, signal);
}

export function listAllCheckpoints(client: ApiClient, runtimeId: string, signal?: AbortSignal): Promise<CheckpointView[]> {
  return collectPages(
    (cursor) =>
      client.get<{ checkpoints: CheckpointView[]; next_cursor: string | null }>(
        `/runtimes/${encodeURIComponent(runtimeId)}/checkpoints`,
        { limit: 500, cursor },
        signal,
      ),
    (page) => page.checkpoints,
  );
}

export function retentionPreview(client: ApiClient, runtimeId: string, signal?: AbortSignal): Promise<RetentionVerdict[]> {
  return collectPages(
    (cursor) =>
      client.get<{ checkpoints: RetentionVerdict[]; next_cursor: string | null }>(
        '/retention/preview',
        { runtime_id: runtimeId, limit: 500, cursor },
        signal,
      ),
    (page) => page.checkpoints,
  );
}

/** `to` is a checkpoint id, or `{runtimeId}` for the live workspace. */
export type DiffTarget = { checkpointId: string } | { runtimeId: string };

export function diffPage(client: ApiClient, fromCheckpointId: string, to: DiffTarget, cursor?: string): Promise<DiffPage> {
  return client.post<DiffPage>('/checkpoints/diff', {
    from_checkpoint_id: fromCheckpointId,
    ...('checkpointId' in to ? { to_checkpoint_id: to.checkpointId } : { to_runtime_id: to.runtimeId }),
    limit: 500,
    ...(cursor ? { cursor } : {}),
  });
}

/** A file of a checkpoint's snapshot (read without restoring) or of a live runtime, as bytes. */
export async function readFileBytes(client: ApiClient, source: DiffTarget, path: string, signal?: AbortSignal): Promise<Uint8Array> {
  const body = 'checkpointId' in source ? { checkpoint_id: source.checkpointId, path } : { runtime_id: source.runtimeId, path };
  const answer = await client.post<{ content_base64: string }>('/runtimes/read-file', body, signal);
  return decodeBase64(answer.content_base64);
}

export function decodeBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

export function listCheckpointDirectory(client: ApiClient, checkpointId: string, path: string, signal?: AbortSignal): Promise<TreeEntry[]> {
  return collectPages(
    (cursor) =>
      client.get<{ entries: TreeEntry[]; next_cursor: string | null }>(
        `/checkpoints/${encodeURIComponent(checkpointId)}/tree`,
        { path, limit: 500, cursor },
        signal,
      ),
    (page) => page.entries,
  );
}

export function getCheckpoint(client: ApiClient, checkpointId: string, signal?: AbortSignal): Promise<CheckpointView> {
  return client.get<CheckpointView>(`/checkpoints/${encodeURIComponent(checkpointId)}`, {}, signal);
}

export interface EventPage {
  events: RuntimeEvent[];
  last_event_id: number;
}

export function eventPage(
  client: ApiClient,
  query: { after?: number; limit?: number; types?: string; runtimeId?: string },
  signal?: AbortSignal,
): Promise<EventPage> {
  return client.get<EventPage>(
    '/events',
    { after: query.after, limit: query.limit ?? 100, types: query.types, runtime_id: query.runtimeId },
    signal,
  );
}

export async function listNodes(client: ApiClient, signal?: AbortSignal): Promise<NodeView[]> {
  return (await client.get<{ nodes: NodeView[] }>('/nodes', {}, signal)).nodes;
}

export function getHealth(client: ApiClient, signal?: AbortSignal): Promise<{ status: string; version: string }> {
  return client.get('/health', {}, signal);
}

export function getReady(client: ApiClient, signal?: AbortSignal): Promise<{ status: string; node_id: string }> {
  return client.get('/ready', {}, signal);
}
