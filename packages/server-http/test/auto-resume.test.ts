import { afterEach, describe, expect, it } from 'vitest';
import { apiClient } from './api-client';
import { createTestServer, type TestServer } from './test-server';

const IDLE_MS = 60_000;
const base64 = (text: string) => Buffer.from(text).toString('base64');

describe('transparent auto-resume', () => {
  let server: TestServer;
  afterEach(() => server.app.close());

  function start(idle: { pauseAfterMs?: number; autoResume?: boolean }) {
    let now = 1_700_000_000_000;
    server = createTestServer({ service: { clock: () => now, idle } });
    return { api: apiClient(server.app), advance: (ms: number) => void (now += ms) };
  }

  it('an idle-paused runtime with auto_resume is resumed by the next exec and read-file: files kept, server-timing shows the resume', async () => {
    const { api, advance } = start({ pauseAfterMs: IDLE_MS, autoResume: true });
    await api.post('/api/v1/runtimes/open', { runtime_id: 'rt-a', conversation_id: 'c', sender_id: 's' });
    await api.post('/api/v1/runtimes/write-file', { runtime_id: 'rt-a', path: 'notes.txt', content_base64: base64('kept') });
    advance(IDLE_MS);
    expect((await server.service.applyPolicies(true)).idle.paused).toBe(1);
    expect((await api.get('/api/v1/runtimes/rt-a')).body.runtime.status).toBe('paused');

    const exec = await api.post('/api/v1/runtimes/exec', { runtime_id: 'rt-a', command: 'cat notes.txt' });
    expect(exec.status).toBe(200);
    expect(Buffer.from(exec.body.stdout_base64, 'base64').toString()).toBe('kept');
    expect(String(exec.headers['server-timing'])).toMatch(/^provider;dur=[\d.]+, resume;dur=[\d.]+, total;dur=[\d.]+$/);
    expect((await api.get('/api/v1/runtimes/rt-a')).body.runtime.status).toBe('idle');

    await api.post('/api/v1/runtimes/pause', { runtime_id: 'rt-a' }); // a manual pause resumes the same way
    const read = await api.post('/api/v1/runtimes/read-file', { runtime_id: 'rt-a', path: 'notes.txt' });
    expect(read.status).toBe(200);
    expect(Buffer.from(read.body.content_base64, 'base64').toString()).toBe('kept');
    expect(String(read.headers['server-timing'])).toContain('resume;dur=');
    const again = await api.post('/api/v1/runtimes/read-file', { runtime_id: 'rt-a', path: 'notes.txt' });
    expect(String(again.headers['server-timing'])).not.toContain('resume');
  });

  it('without auto_resume (the default, or turned off for the runtime) an operation on a paused runtime answers runtime_paused', async () => {
    const { api, advance } = start({ pauseAfterMs: IDLE_MS });
    await api.post('/api/v1/runtimes/open', { runtime_id: 'rt-b', conversation_id: 'c', sender_id: 's' });
    await api.post('/api/v1/runtimes/open', { runtime_id: 'rt-c', conversation_id: 'c', sender_id: 's', auto_resume: true });
    await api.post('/api/v1/runtimes/update', { runtime_id: 'rt-c', auto_resume: false });
    advance(IDLE_MS);
    expect((await server.service.applyPolicies(true)).idle.paused).toBe(2);
    for (const runtimeId of ['rt-b', 'rt-c']) {
      const exec = await api.post('/api/v1/runtimes/exec', { runtime_id: runtimeId, command: 'true' });
      expect(exec.status).toBe(409);
      expect(exec.body.code).toBe('runtime_paused');
    }
    expect((await api.get('/api/v1/runtimes/rt-c')).body).toMatchObject({ auto_resume: false, idle_pause_after_ms: null });
  });
});
