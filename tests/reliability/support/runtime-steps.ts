import { expect } from 'vitest';
import type { Api } from './http';
import { runtimeDetail, type RuntimeDetailView } from './invariants';

/** Opens a runtime on the daemon's default provider; returns its id. */
export async function openRuntime(api: Api, extra: Record<string, unknown> = {}): Promise<string> {
  const body = await api.ok<{ runtime: { runtime_id: string } }>('/api/v1/runtimes/open', {
    conversation_id: 'reliability',
    sender_id: 'suite',
    ...extra,
  });
  return body.runtime.runtime_id;
}

export async function writeText(api: Api, runtimeId: string, path: string, text: string): Promise<void> {
  await api.ok('/api/v1/runtimes/write-file', { runtime_id: runtimeId, path, content_base64: Buffer.from(text).toString('base64') });
}

export async function readText(api: Api, runtimeId: string, path: string): Promise<string> {
  const body = await api.ok<{ content_base64: string }>('/api/v1/runtimes/read-file', { runtime_id: runtimeId, path });
  return Buffer.from(body.content_base64, 'base64').toString();
}

export async function checkpoint(api: Api, runtimeId: string): Promise<string> {
  return (await api.ok<{ checkpoint_id: string }>('/api/v1/runtimes/checkpoint', { runtime_id: runtimeId })).checkpoint_id;
}

export async function checkoutChild(api: Api, checkpointId: string): Promise<string> {
  return (await api.ok<{ runtime: { runtime_id: string } }>('/api/v1/runtimes/checkout', { checkpoint_id: checkpointId })).runtime.runtime_id;
}

export async function expectStatus(api: Api, runtimeId: string, status: RuntimeDetailView['runtime']['status']): Promise<RuntimeDetailView> {
  const detail = await runtimeDetail(api, runtimeId);
  expect(detail.runtime.status, `status of ${runtimeId}`).toBe(status);
  return detail;
}

export async function hasProviderSnapshot(api: Api, checkpointId: string): Promise<boolean> {
  return (await api.read<{ has_provider_snapshot: boolean }>(`/api/v1/checkpoints/${checkpointId}`)).has_provider_snapshot;
}

/**
 * Closes every runtime in `runtimeIds` that is not closed yet (cascade, snapshots not kept).
 * Closed ones are left alone unless `reclose`: re-closing retries leftover clean-up, which would
 * hide a snapshot that a failed call leaked.
 */
export async function closeAll(api: Api, runtimeIds: Iterable<string>, options: { reclose?: boolean } = {}): Promise<void> {
  for (const runtimeId of runtimeIds) {
    if (!options.reclose && (await runtimeDetail(api, runtimeId)).runtime.status === 'closed') continue;
    const reply = await api.post('/api/v1/runtimes/close', { runtime_id: runtimeId, cascade: true });
    if (reply.status !== 200) throw new Error(`close ${runtimeId} → ${reply.status}: ${reply.text.slice(0, 300)}`);
  }
}
