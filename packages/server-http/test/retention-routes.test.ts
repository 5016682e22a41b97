import { CheckpointPinResultSchema, RetentionPreviewResultSchema } from '@runtimectl/core';
import { afterEach, describe, expect, it } from 'vitest';
import { apiClient } from './api-client';
import { base64, createTestServer, type TestServer } from './test-server';

describe('retention routes', () => {
  let server: TestServer;
  afterEach(() => server.app.close());

  /** Opens `runtime_id` (with `retention` settings, if any) and takes `count` checkpoints, each after a write. */
  async function runtimeWithCheckpoints(api: ReturnType<typeof apiClient>, runtime_id: string, count: number, retention?: Record<string, unknown>) {
    const opened = await api.post('/api/v1/runtimes/open', { runtime_id, conversation_id: 'c', sender_id: 's', ...(retention ? { retention } : {}) });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    const ids: string[] = [];
    for (let i = 0; i < count; i += 1) {
      await api.post('/api/v1/runtimes/write-file', { runtime_id, path: 'f.txt', content_base64: base64(`v${i}`) });
      ids.push((await api.post('/api/v1/runtimes/checkpoint', { runtime_id })).body.checkpoint_id);
    }
    return ids;
  }

  it('POST /runtimes/checkpoint/pin pins and unpins, and the checkpoint view says so', async () => {
    server = createTestServer();
    const api = apiClient(server.app);
    const [id] = await runtimeWithCheckpoints(api, 'rt-a', 1);
    const pinned = await api.post('/api/v1/runtimes/checkpoint/pin', { checkpoint_id: id });
    expect(pinned.status).toBe(200);
    expect(CheckpointPinResultSchema.parse(pinned.body).checkpoint).toMatchObject({ checkpoint_id: id, pinned: true });
    expect((await api.get(`/api/v1/checkpoints/${id}`)).body.pinned).toBe(true);
    expect((await api.post('/api/v1/runtimes/checkpoint/pin', { checkpoint_id: id, pinned: false })).body.checkpoint.pinned).toBe(false);
  });

  it('pin of an unknown checkpoint answers checkpoint_not_found; a malformed body answers invalid_request', async () => {
    server = createTestServer();
    const api = apiClient(server.app);
    const unknown = await api.post('/api/v1/runtimes/checkpoint/pin', { checkpoint_id: `rtcp_${'0'.repeat(32)}` });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'checkpoint_not_found']);
    const malformed = await api.post('/api/v1/runtimes/checkpoint/pin', { checkpoint_id: `rtcp_${'0'.repeat(32)}`, pinned: 'yes' });
    expect([malformed.status, malformed.body.code]).toEqual([400, 'invalid_request']);
  });

  it('GET /retention/preview answers the per-checkpoint verdicts of the runtime’s own policy and deletes nothing', async () => {
    server = createTestServer();
    const api = apiClient(server.app);
    const [first, second] = await runtimeWithCheckpoints(api, 'rt-a', 2, { keep_last: 1 });
    expect((await api.get('/api/v1/runtimes/rt-a')).body.retention).toEqual({ keep_last: 1 });
    const preview = await api.get('/api/v1/retention/preview?runtime_id=rt-a&limit=1');
    expect(preview.status).toBe(200);
    expect(RetentionPreviewResultSchema.parse(preview.body)).toEqual({
      checkpoints: [{ checkpoint_id: first, runtime_id: 'rt-a', provider: 'memory', delete: true, reasons: ['outside_keep_last'] }],
      next_cursor: first,
      summary: { snapshots_to_delete: 1, checkpoints_to_clear: 1 },
    });
    const next = await api.get(`/api/v1/retention/preview?runtime_id=rt-a&cursor=${first}`);
    expect(next.body.checkpoints.map((c: { checkpoint_id: string }) => c.checkpoint_id)).toEqual([second]);
    expect(server.provider.snapshotIds()).toHaveLength(2);
  });

  it('open refuses a retention setting out of range with invalid_request', async () => {
    server = createTestServer();
    const api = apiClient(server.app);
    const refused = await api.post('/api/v1/runtimes/open', { conversation_id: 'c', sender_id: 's', retention: { keep_last: 0 } });
    expect([refused.status, refused.body.code]).toEqual([400, 'invalid_request']);
  });
});
