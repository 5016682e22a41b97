import { CheckpointViewSchema, RuntimeDetailSchema } from '@runtimectl/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiClient } from './api-client';
import { base64, createTestServer, fromBase64, type TestServer } from './test-server';

describe('every route answers its happy path', () => {
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;

  beforeEach(() => {
    server = createTestServer();
    api = apiClient(server.app);
  });
  afterEach(() => server.app.close());

  const open = async (runtime_id: string, extra: Record<string, unknown> = {}) => {
    const opened = await api.post('/api/v1/runtimes/open', { runtime_id, conversation_id: 'conv', sender_id: 'me', ...extra });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    return opened.body;
  };

  it('GET /api/v1/health reports ok and the configured version', async () => {
    const health = await api.get('/api/v1/health');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok', version: '9.9.9-test' });
  });

  it('GET /api/v1/providers says checkpoint works on every provider and which ones keep a restorable snapshot, and of what (files, or memory and processes)', async () => {
    const providers = await api.get('/api/v1/providers');
    expect(providers.body.providers).toEqual([
      { provider: 'memory', capabilities: { checkpoint: true, snapshot: true, checkout: true, delete_snapshot: true, pause: true, snapshot_kind: 'filesystem', restore_verification: 'opt_in' }, in_force: {} },
      { provider: 'nosnap', capabilities: { checkpoint: true, snapshot: false, checkout: false, delete_snapshot: false, pause: false, snapshot_kind: null, restore_verification: null }, in_force: {} },
    ]);
  });

  it('open creates a runtime, and opening it again with the same parties re-attaches', async () => {
    const first = await open('rt-a', { metadata: { team: 'x' }, session_state: { step: 1 } });
    expect(first.created).toBe(true);
    expect(first.runtime).toMatchObject({ runtime_id: 'rt-a', conversation_id: 'conv', sender_id: 'me', status: 'idle' });
    const again = await open('rt-a');
    expect(again.created).toBe(false);
    expect(server.provider.calls.create).toBe(1);
  });

  it('open without a runtime_id generates one on the default provider', async () => {
    const opened = await api.post('/api/v1/runtimes/open', { conversation_id: 'conv', sender_id: 'me' });
    expect(opened.body.runtime.runtime_id).toMatch(/^rt_[0-9a-f]{32}$/);
    const detail = await api.get(`/api/v1/runtimes/${opened.body.runtime.runtime_id}`);
    expect(detail.body.provider).toBe('memory');
    expect(detail.body.metadata).toEqual({});
  });

  it('GET /api/v1/runtimes/{id} returns the detail with session_state and last_error', async () => {
    await open('rt-a', { metadata: { team: 'x' }, session_state: { step: 1 } });
    const detail = await api.get('/api/v1/runtimes/rt-a');
    expect(detail.status).toBe(200);
    expect(RuntimeDetailSchema.parse(detail.body)).toEqual(detail.body);
    expect(detail.body).toMatchObject({
      provider: 'memory',
      head_checkpoint_id: null,
      paused_checkpoint_id: null,
      parent_runtime_id: null,
      forked_from_checkpoint_id: null,
      metadata: { team: 'x' },
      session_state: { step: 1 },
      last_error: null,
    });
  });

  it('GET /api/v1/runtimes lists by id, pages with limit and cursor, and filters by status', async () => {
    for (const id of ['rt-c', 'rt-a', 'rt-b']) await open(id);
    await api.post('/api/v1/runtimes/close', { runtime_id: 'rt-b' });
    const first = await api.get('/api/v1/runtimes?limit=2');
    expect(first.body.runtimes.map((r: { runtime_id: string }) => r.runtime_id)).toEqual(['rt-a', 'rt-b']);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await api.get(`/api/v1/runtimes?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    expect(second.body).toMatchObject({ runtimes: [{ runtime_id: 'rt-c' }], next_cursor: null });
    const closed = await api.get('/api/v1/runtimes?status=closed');
    expect(closed.body.runtimes.map((r: { runtime_id: string }) => r.runtime_id)).toEqual(['rt-b']);
  });

  it('update replaces session_state and metadata wholesale', async () => {
    await open('rt-a', { metadata: { a: 1, b: 2 }, session_state: { step: 1 } });
    const updated = await api.post('/api/v1/runtimes/update', { runtime_id: 'rt-a', metadata: { c: 3 }, session_state: [1, 2] });
    expect(updated.status).toBe(200);
    expect(updated.body.runtime.runtime_id).toBe('rt-a');
    const detail = await api.get('/api/v1/runtimes/rt-a');
    expect(detail.body).toMatchObject({ metadata: { c: 3 }, session_state: [1, 2] });
  });

  it('exec returns base64 output, the exit code and truncated; a non-zero exit is still 200', async () => {
    await open('rt-a');
    const echoed = await api.post('/api/v1/runtimes/exec', { runtime_id: 'rt-a', command: 'echo hello world' });
    expect(echoed.status).toBe(200);
    expect(fromBase64(echoed.body.stdout_base64)).toBe('hello world\n');
    expect(echoed.body).toMatchObject({ exit_code: 0, timed_out: false, truncated: false, stderr_base64: '' });
    expect(echoed.body.duration_ms).toEqual(expect.any(Number));
    const failed = await api.post('/api/v1/runtimes/exec', { runtime_id: 'rt-a', command: 'exit 3' });
    expect(failed.status).toBe(200);
    expect(failed.body.exit_code).toBe(3);
  });

  it('write-file, read-file, stat and mkdir work on the workspace', async () => {
    await open('rt-a');
    const written = await api.post('/api/v1/runtimes/write-file', { runtime_id: 'rt-a', path: 'src/a.txt', content_base64: base64('alpha') });
    expect(written.body).toEqual({ path: 'src/a.txt', created: true });
    const read = await api.post('/api/v1/runtimes/read-file', { runtime_id: 'rt-a', path: 'src/a.txt' });
    expect(fromBase64(read.body.content_base64)).toBe('alpha');
    const stat = await api.post('/api/v1/runtimes/stat', { runtime_id: 'rt-a', path: 'src/a.txt' });
    expect(stat.body).toMatchObject({ exists: true, kind: 'file', size_bytes: 5 });
    const missing = await api.post('/api/v1/runtimes/stat', { runtime_id: 'rt-a', path: 'nope.txt' });
    expect(missing.body).toEqual({ exists: false, kind: null, size_bytes: null, modified_at_ms: null });
    const made = await api.post('/api/v1/runtimes/mkdir', { runtime_id: 'rt-a', path: 'deep/er/dir' });
    expect(made.body).toEqual({ path: 'deep/er/dir' });
    const dir = await api.post('/api/v1/runtimes/stat', { runtime_id: 'rt-a', path: 'deep/er' });
    expect(dir.body).toMatchObject({ exists: true, kind: 'directory' });
  });

  it('search finds files by glob and lines by literal grep, with truncated', async () => {
    await open('rt-a');
    await api.post('/api/v1/runtimes/write-file', { runtime_id: 'rt-a', path: 'src/a.ts', content_base64: base64('const a = 1;\nneedle (x)\n') });
    await api.post('/api/v1/runtimes/write-file', { runtime_id: 'rt-a', path: 'src/b.md', content_base64: base64('no match\n') });
    const globbed = await api.post('/api/v1/runtimes/search', { runtime_id: 'rt-a', glob: '**/*.ts' });
    expect(globbed.body).toEqual({ paths: ['src/a.ts'], truncated: false });
    const grepped = await api.post('/api/v1/runtimes/search', { runtime_id: 'rt-a', grep: { query: 'needle (x)' } });
    expect(grepped.body).toEqual({ matches: [{ path: 'src/a.ts', line: 2, text: 'needle (x)' }], truncated: false });
    const limited = await api.post('/api/v1/runtimes/search', { runtime_id: 'rt-a', glob: '**/*', limit: 1 });
    expect(limited.body).toMatchObject({ truncated: true });
    expect(limited.body.paths).toHaveLength(1);
    const files = await api.post('/api/v1/runtimes/search', { runtime_id: 'rt-a', grep: { query: 'match', mode: 'files_with_matches' } });
    expect(files.body).toEqual({ paths: ['src/b.md'], truncated: false });
  });

  it('export streams the bytes as an attachment', async () => {
    await open('rt-a');
    const bytes = Buffer.from(Array.from({ length: 256 }, (_, index) => index));
    await api.post('/api/v1/runtimes/write-file', { runtime_id: 'rt-a', path: 'out/data.bin', content_base64: bytes.toString('base64') });
    const exported = await server.app.inject({ method: 'POST', url: '/api/v1/runtimes/export', payload: { runtime_id: 'rt-a', path: 'out/data.bin' } });
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toBe('application/octet-stream');
    expect(exported.headers['content-disposition']).toBe('attachment; filename="data.bin"');
    expect(exported.rawPayload.equals(bytes)).toBe(true);
  });

  it('export encodes a non-ASCII file name in content-disposition', async () => {
    await open('rt-a');
    await api.post('/api/v1/runtimes/write-file', { runtime_id: 'rt-a', path: 'résumé "v2".txt', content_base64: base64('x') });
    const exported = await server.app.inject({ method: 'POST', url: '/api/v1/runtimes/export', payload: { runtime_id: 'rt-a', path: 'résumé "v2".txt' } });
    expect(exported.headers['content-disposition']).toContain("filename*=UTF-8''r%C3%A9sum%C3%A9%20%22v2%22.txt");
  });

  it('checkpoint, list and get checkpoints: newest first, and a clean runtime reuses its snapshot', async () => {
    await open('rt-a');
    await api.post('/api/v1/runtimes/write-file', { runtime_id: 'rt-a', path: 'a.txt', content_base64: base64('1') });
    const first = await api.post('/api/v1/runtimes/checkpoint', { runtime_id: 'rt-a', name: 'one', metadata: { n: 1 } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ parent_checkpoint_id: null, name: 'one', metadata: { n: 1 }, reused_backend_snapshot: false });
    expect(first.body.checkpoint_id).toMatch(/^rtcp_[0-9a-f]{32}$/);
    const second = await api.post('/api/v1/runtimes/checkpoint', { runtime_id: 'rt-a' });
    expect(second.body).toMatchObject({ parent_checkpoint_id: first.body.checkpoint_id, reused_backend_snapshot: true, metadata: {} });
    expect(server.provider.calls.checkpoint).toBe(1);

    const listed = await api.get('/api/v1/runtimes/rt-a/checkpoints?limit=1');
    expect(listed.body.checkpoints.map((c: { checkpoint_id: string }) => c.checkpoint_id)).toEqual([second.body.checkpoint_id]);
    const rest = await api.get(`/api/v1/runtimes/rt-a/checkpoints?cursor=${encodeURIComponent(listed.body.next_cursor)}`);
    expect(rest.body).toMatchObject({ checkpoints: [{ checkpoint_id: first.body.checkpoint_id }], next_cursor: null });

    const view = await api.get(`/api/v1/checkpoints/${first.body.checkpoint_id}`);
    expect(CheckpointViewSchema.parse(view.body)).toEqual(view.body);
    expect(view.body).toMatchObject({ runtime_id: 'rt-a', kind: 'checkpoint', name: 'one', provider: 'memory', has_provider_snapshot: true });
  });

  it('checkout creates a child with a generated id whose detail is reachable raw and URL-encoded', async () => {
    await open('rt-a', { metadata: { from: 'parent', keep: true } });
    await api.post('/api/v1/runtimes/write-file', { runtime_id: 'rt-a', path: 'a.txt', content_base64: base64('parent') });
    const checkpoint = await api.post('/api/v1/runtimes/checkpoint', { runtime_id: 'rt-a' });
    const child = await api.post('/api/v1/runtimes/checkout', {
      checkpoint_id: checkpoint.body.checkpoint_id,
      sender_id: 'other',
      metadata: { from: 'child' },
    });
    expect(child.status).toBe(200);
    const childId: string = child.body.runtime.runtime_id;
    expect(childId).toMatch(/^rt-a:checkout:[0-9a-f]{32}$/);
    expect(child.body).toMatchObject({ checkpoint_id: checkpoint.body.checkpoint_id, source_runtime_id: 'rt-a' });
    expect(child.body.runtime).toMatchObject({ conversation_id: 'conv', sender_id: 'other', status: 'idle' });

    for (const url of [`/api/v1/runtimes/${childId}`, `/api/v1/runtimes/${encodeURIComponent(childId)}`]) {
      const detail = await api.get(url);
      expect(detail.status, url).toBe(200);
      expect(detail.body).toMatchObject({
        runtime: { runtime_id: childId },
        parent_runtime_id: 'rt-a',
        forked_from_checkpoint_id: checkpoint.body.checkpoint_id,
        metadata: { from: 'child', keep: true },
      });
    }
    for (const url of [`/api/v1/runtimes/${childId}/checkpoints`, `/api/v1/runtimes/${encodeURIComponent(childId)}/checkpoints`]) {
      const listed = await api.get(url);
      expect(listed.status, url).toBe(200);
      expect(listed.body).toEqual({ checkpoints: [], next_cursor: null });
    }
    const read = await api.post('/api/v1/runtimes/read-file', { runtime_id: childId, path: 'a.txt' });
    expect(fromBase64(read.body.content_base64)).toBe('parent');
  });

  it('pause releases the backend, resume restores the same id with its files, metadata merged', async () => {
    await open('rt-a', { metadata: { a: 1 } });
    await api.post('/api/v1/runtimes/write-file', { runtime_id: 'rt-a', path: 'a.txt', content_base64: base64('kept') });
    const paused = await api.post('/api/v1/runtimes/pause', { runtime_id: 'rt-a', name: 'nap' });
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ runtime: { runtime_id: 'rt-a', status: 'paused' }, name: 'nap', parent_checkpoint_id: null });
    expect(server.provider.liveBackendIds()).toEqual([]);
    const resumed = await api.post('/api/v1/runtimes/resume', { runtime_id: 'rt-a', metadata: { b: 2 } });
    expect(resumed.status).toBe(200);
    expect(resumed.body.runtime).toMatchObject({ runtime_id: 'rt-a', status: 'idle' });
    const read = await api.post('/api/v1/runtimes/read-file', { runtime_id: 'rt-a', path: 'a.txt' });
    expect(fromBase64(read.body.content_base64)).toBe('kept');
    expect((await api.get('/api/v1/runtimes/rt-a')).body.metadata).toEqual({ a: 1, b: 2 });
  });

  it('delete-snapshot deletes the checkpoint\'s provider snapshot once, then is a no-op', async () => {
    await open('rt-a');
    await api.post('/api/v1/runtimes/write-file', { runtime_id: 'rt-a', path: 'a.txt', content_base64: base64('1') });
    const checkpoint = await api.post('/api/v1/runtimes/checkpoint', { runtime_id: 'rt-a', name: 'snap' });
    const deleted = await api.post('/api/v1/runtimes/checkpoint/delete-snapshot', { checkpoint_id: checkpoint.body.checkpoint_id });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({
      checkpoint_id: checkpoint.body.checkpoint_id,
      runtime_id: 'rt-a',
      provider: 'memory',
      provider_snapshot_id: expect.any(String),
      provider_snapshot_names: ['snap'],
      deleted_provider_snapshot: true,
      cleared_checkpoint_ids: [checkpoint.body.checkpoint_id],
    });
    expect(server.provider.snapshotIds()).toEqual([]);
    const again = await api.post('/api/v1/runtimes/checkpoint/delete-snapshot', { checkpoint_id: checkpoint.body.checkpoint_id });
    expect(again.body).toMatchObject({ deleted_provider_snapshot: false, provider_snapshot_id: null });
  });

  it('close releases the backend, cascades to checkout children and deletes unkept snapshots', async () => {
    await open('rt-a');
    await api.post('/api/v1/runtimes/write-file', { runtime_id: 'rt-a', path: 'a.txt', content_base64: base64('1') });
    const checkpoint = await api.post('/api/v1/runtimes/checkpoint', { runtime_id: 'rt-a' });
    const child = await api.post('/api/v1/runtimes/checkout', { checkpoint_id: checkpoint.body.checkpoint_id });
    const closed = await api.post('/api/v1/runtimes/close', { runtime_id: 'rt-a', cascade: true });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ runtime: { runtime_id: 'rt-a', status: 'closed' }, released_backend: true });
    expect(closed.body.closed_runtime_ids).toEqual(['rt-a', child.body.runtime.runtime_id]);
    expect(closed.body.deleted_snapshot_ids).toHaveLength(1);
    expect(server.provider.liveBackendIds()).toEqual([]);
    expect(server.provider.snapshotIds()).toEqual([]);
    const again = await api.post('/api/v1/runtimes/close', { runtime_id: 'rt-a' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ released_backend: false, closed_runtime_ids: [], deleted_snapshot_ids: [] });
  });
});
