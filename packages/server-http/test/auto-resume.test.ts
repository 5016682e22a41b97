import { afterEach, describe, expect, it } from 'vitest';
import { apiClient } from './api-client';
import { listenOnLoopback, rawRequest } from './raw-http';
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

  it('five parallel execs over real connections on a paused auto_resume runtime are all answered 200, after one resume', async () => {
    const { api } = start({ autoResume: true });
    await api.post('/api/v1/runtimes/open', { runtime_id: 'rt-d', conversation_id: 'c', sender_id: 's' });
    await api.post('/api/v1/runtimes/pause', { runtime_id: 'rt-d' });
    // The resume's restore takes a while, as a real provider's does, so the other execs arrive during it.
    const checkout = server.provider.checkout!.bind(server.provider);
    Object.assign(server.provider, {
      checkout: async (...args: Parameters<typeof checkout>) => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        return checkout(...args);
      },
    });
    const port = await listenOnLoopback(server.app);
    const execs = await Promise.all(
      Array.from({ length: 5 }, (_, index) =>
        rawRequest(port, {
          method: 'POST',
          path: '/api/v1/runtimes/exec',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ runtime_id: 'rt-d', command: `echo ${index}` }),
        }),
      ),
    );
    expect(execs.map((exec) => [exec.status, exec.body.code])).toEqual(Array.from({ length: 5 }, () => [200, undefined]));
    expect((await server.service.listEvents({ types: ['runtime.resumed'] })).events).toHaveLength(1);
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
