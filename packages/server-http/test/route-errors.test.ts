import { BackendGoneError, ErrorBodySchema, MemoryRuntimeStore, RUNTIME_ACTION_NAMES, ProviderCapacityError, ProviderTimeoutError, type SessionRecord } from '@runtimectl/core';
import { CONTRACT_ROUTES, createMemoryProvider } from '@runtimectl/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiClient, type InjectedJson } from './api-client';
import { base64, createTestServer, type TestServer } from './test-server';

/** A memory store whose next getSession throws a plain Error, as a broken database driver would. */
class BreakableStore extends MemoryRuntimeStore {
  breakNext = false;
  override async getSession(runtimeId: string): Promise<SessionRecord | undefined> {
    if (this.breakNext) {
      this.breakNext = false;
      throw new Error('connection to /var/secret/store.db refused: password=hunter2');
    }
    return super.getSession(runtimeId);
  }
}

function expectError(response: InjectedJson, status: number, code: string) {
  expect({ status: response.status, code: response.body?.code }, JSON.stringify(response.body)).toEqual({ status, code });
  expect(ErrorBodySchema.strict().parse(response.body)).toEqual(response.body);
}

describe('error responses', () => {
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;
  let store: BreakableStore;

  beforeEach(async () => {
    store = new BreakableStore();
    server = createTestServer({ store });
    api = apiClient(server.app);
    await api.post('/api/v1/runtimes/open', { runtime_id: 'rt-a', conversation_id: 'conv', sender_id: 'me' });
  });
  afterEach(() => server.app.close());

  it('an unknown field is 400 invalid_request carrying the zod issues', async () => {
    const response = await api.post('/api/v1/runtimes/exec', { runtime_id: 'rt-a', command: 'true', comand: 'typo' });
    expectError(response, 400, 'invalid_request');
    expect(response.body.details).toEqual({
      in: 'body',
      issues: [expect.objectContaining({ code: 'unrecognized_keys', keys: ['comand'], path: [] })],
    });
  });

  it('a TTL beyond 100 years is 400 invalid_request: open time plus it would pass what a millisecond count holds exactly', async () => {
    const hundredYearsMs = 100 * 365.25 * 24 * 3600 * 1000;
    const tooLong = await api.post('/api/v1/runtimes/open', { conversation_id: 'conv', sender_id: 'me', max_lifetime_ms: Number.MAX_SAFE_INTEGER });
    expectError(tooLong, 400, 'invalid_request');
    expect(tooLong.body.details.issues[0]).toMatchObject({ path: ['max_lifetime_ms'] });
    const longest = await api.post('/api/v1/runtimes/open', { conversation_id: 'conv', sender_id: 'me', max_lifetime_ms: hundredYearsMs });
    expect(longest.status).toBe(200);
  });

  it('a missing field, bad base64, a bad query and a bad path parameter are 400 invalid_request', async () => {
    const missing = await api.post('/api/v1/runtimes/open', { sender_id: 'me' });
    expectError(missing, 400, 'invalid_request');
    expect(missing.body.details.issues[0]).toMatchObject({ path: ['conversation_id'] });
    expectError(await api.post('/api/v1/runtimes/write-file', { runtime_id: 'rt-a', path: 'a', content_base64: 'not base64!' }), 400, 'invalid_request');
    const query = await api.get('/api/v1/runtimes?limit=0');
    expectError(query, 400, 'invalid_request');
    expect(query.body.details.in).toBe('querystring');
    const unknownQuery = await api.get('/api/v1/runtimes?colour=red');
    expectError(unknownQuery, 400, 'invalid_request');
    const params = await api.get('/api/v1/checkpoints/not-a-checkpoint');
    expectError(params, 400, 'invalid_request');
    expect(params.body.details.in).toBe('params');
  });

  it('search with both glob and grep is 400 invalid_request', async () => {
    expectError(await api.post('/api/v1/runtimes/search', { runtime_id: 'rt-a', glob: '*', grep: { query: 'x' } }), 400, 'invalid_request');
  });

  it('malformed JSON, an empty JSON body and a non-JSON content type are 400 invalid_request', async () => {
    const malformed = await api.call('POST', '/api/v1/runtimes/exec', '{"runtime_id": ', { 'content-type': 'application/json' });
    expectError(malformed, 400, 'invalid_request');
    const empty = await api.call('POST', '/api/v1/runtimes/exec', '', { 'content-type': 'application/json' });
    expectError(empty, 400, 'invalid_request');
    const text = await api.call('POST', '/api/v1/runtimes/exec', 'runtime_id=rt-a', { 'content-type': 'text/plain' });
    expectError(text, 400, 'invalid_request');
    const form = await api.call('POST', '/api/v1/runtimes/exec', 'runtime_id=rt-a', { 'content-type': 'application/x-www-form-urlencoded' });
    expectError(form, 400, 'invalid_request');
  });

  it('an unknown path is 404 route_not_found; a path served under other methods 405 method_not_allowed with Allow', async () => {
    expectError(await api.get('/api/v1/nothing-here'), 404, 'route_not_found');
    const deleted = await api.call('DELETE', '/api/v1/runtimes/rt-a');
    expectError(deleted, 405, 'method_not_allowed');
    expect(deleted.headers['allow']).toBe('GET, HEAD');
    expect(deleted.body.details).toEqual({ allow: ['GET', 'HEAD'] });
    const health = await api.post('/api/v1/health', {});
    expectError(health, 405, 'method_not_allowed');
    expect(health.headers['allow']).toBe('GET, HEAD');
  });

  it('an action path with the wrong method is 405 (Allow: POST), never a runtime or checkpoint of that name', async () => {
    for (const path of ['/api/v1/runtimes/checkpoint', '/api/v1/runtimes/exec', '/api/v1/runtimes/checkpoint/pin', '/api/v1/checkpoints/diff']) {
      const response = await api.get(path);
      expectError(response, 405, 'method_not_allowed');
      expect({ path, allow: response.headers['allow'], error: response.body.error }).toEqual({ path, allow: 'POST', error: `${path} takes POST, not GET` });
    }
    // A runtime id may still look like an action's path below another segment.
    expectError(await api.get('/api/v1/runtimes/exec/checkpoints'), 404, 'runtime_not_found');
  });

  it('the names of runtime actions are refused as runtime ids at open, so no runtime hides behind an action path', async () => {
    for (const runtime_id of RUNTIME_ACTION_NAMES) {
      const response = await api.post('/api/v1/runtimes/open', { runtime_id, conversation_id: 'c', sender_id: 's' });
      expectError(response, 400, 'invalid_request');
      expect(response.body.error).toContain('names an action of the API');
    }
    // Every action of the contract under /runtimes/ is reserved: a new one must join the list.
    const actions = CONTRACT_ROUTES.flatMap((route) => /^post \/api\/v1\/runtimes\/([a-z-]+)$/.exec(route)?.[1] ?? []);
    expect(actions.length).toBeGreaterThan(10);
    for (const action of actions) expect(RUNTIME_ACTION_NAMES, action).toContain(action);
  });

  it('unknown runtime and checkpoint ids are 404 runtime_not_found / checkpoint_not_found', async () => {
    const unknownCheckpoint = `rtcp_${'0'.repeat(32)}`;
    expectError(await api.get('/api/v1/runtimes/ghost'), 404, 'runtime_not_found');
    expectError(await api.get('/api/v1/runtimes/ghost/checkpoints'), 404, 'runtime_not_found');
    expectError(await api.post('/api/v1/runtimes/exec', { runtime_id: 'ghost', command: 'true' }), 404, 'runtime_not_found');
    expectError(await api.post('/api/v1/runtimes/close', { runtime_id: 'ghost' }), 404, 'runtime_not_found');
    expectError(await api.get(`/api/v1/checkpoints/${unknownCheckpoint}`), 404, 'checkpoint_not_found');
    expectError(await api.post('/api/v1/runtimes/checkout', { checkpoint_id: unknownCheckpoint }), 404, 'checkpoint_not_found');
    const deleted = await api.post('/api/v1/runtimes/checkpoint/delete-snapshot', { checkpoint_id: unknownCheckpoint });
    expectError(deleted, 404, 'checkpoint_not_found');
    expect(deleted.body.details).toEqual({ checkpoint_id: unknownCheckpoint });
  });

  it('a missing file is 404 path_not_found for read-file and export', async () => {
    expectError(await api.post('/api/v1/runtimes/read-file', { runtime_id: 'rt-a', path: 'missing.txt' }), 404, 'path_not_found');
    expectError(await api.post('/api/v1/runtimes/export', { runtime_id: 'rt-a', path: 'missing.txt' }), 404, 'path_not_found');
  });

  it('a control operation while another runs is 409 session_busy', async () => {
    // An exec that holds the runtime until released: no timing guesses.
    let started!: () => void;
    let release!: () => void;
    const inFlight = new Promise<void>((resolve) => (started = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    const blocking = createMemoryProvider({
      providerId: 'blocking',
      execHandler: async (request) => {
        if (request.command !== 'hold') return undefined;
        started();
        await released;
        return { stdout: 'held' };
      },
    });
    const busy = createTestServer({ providers: [server.provider, blocking] });
    const busyApi = apiClient(busy.app);
    await busyApi.post('/api/v1/runtimes/open', { runtime_id: 'rt-b', conversation_id: 'c', sender_id: 's', provider: 'blocking' });
    const running = busyApi.post('/api/v1/runtimes/exec', { runtime_id: 'rt-b', command: 'hold' });
    await inFlight;
    const refused = await busyApi.post('/api/v1/runtimes/checkpoint', { runtime_id: 'rt-b' });
    expectError(refused, 409, 'session_busy');
    expect(refused.body.details).toEqual({ runtime_id: 'rt-b' });
    expect((await busyApi.get('/api/v1/runtimes/rt-b')).body.runtime.status).toBe('running');
    release();
    expect((await running).status).toBe(200);
    await busy.app.close();
  });

  it('state conflicts are 409: runtime_paused, runtime_not_paused, runtime_closed, runtime_exists', async () => {
    expectError(await api.post('/api/v1/runtimes/resume', { runtime_id: 'rt-a' }), 409, 'runtime_not_paused');
    expectError(
      await api.post('/api/v1/runtimes/open', { runtime_id: 'rt-a', conversation_id: 'another', sender_id: 'me' }),
      409,
      'runtime_exists',
    );
    await api.post('/api/v1/runtimes/pause', { runtime_id: 'rt-a' });
    expectError(await api.post('/api/v1/runtimes/exec', { runtime_id: 'rt-a', command: 'true' }), 409, 'runtime_paused');
    await api.post('/api/v1/runtimes/close', { runtime_id: 'rt-a' });
    expectError(await api.post('/api/v1/runtimes/update', { runtime_id: 'rt-a', metadata: {} }), 409, 'runtime_closed');
    expectError(await api.post('/api/v1/runtimes/exec', { runtime_id: 'rt-a', command: 'true' }), 409, 'runtime_closed');
  });

  it('a runtime whose backend vanished is 409 runtime_failed, and GET shows last_error', async () => {
    server.provider.failNext('exec', 1, new BackendGoneError('memory', 'exec', 'sandbox was killed'));
    expectError(await api.post('/api/v1/runtimes/exec', { runtime_id: 'rt-a', command: 'true' }), 409, 'runtime_failed');
    const detail = await api.get('/api/v1/runtimes/rt-a');
    expect(detail.body.runtime.status).toBe('failed');
    expect(detail.body.last_error).toEqual(expect.stringContaining('gone'));
  });

  it('deleting the snapshot a paused runtime resumes from is 409 snapshot_in_use naming the runtime', async () => {
    const paused = await api.post('/api/v1/runtimes/pause', { runtime_id: 'rt-a' });
    const refused = await api.post('/api/v1/runtimes/checkpoint/delete-snapshot', { checkpoint_id: paused.body.checkpoint_id });
    expectError(refused, 409, 'snapshot_in_use');
    expect(refused.body.details).toEqual({ runtime_ids: ['rt-a'] });
  });

  it('checkout from a checkpoint whose snapshot was deleted is 410 checkpoint_snapshot_deleted', async () => {
    await api.post('/api/v1/runtimes/write-file', { runtime_id: 'rt-a', path: 'a', content_base64: base64('a') });
    const checkpoint = await api.post('/api/v1/runtimes/checkpoint', { runtime_id: 'rt-a' });
    await api.post('/api/v1/runtimes/checkpoint/delete-snapshot', { checkpoint_id: checkpoint.body.checkpoint_id });
    expectError(await api.post('/api/v1/runtimes/checkout', { checkpoint_id: checkpoint.body.checkpoint_id }), 410, 'checkpoint_snapshot_deleted');
  });

  it('a provider capacity refusal is 429 provider_capacity with Retry-After in whole seconds, rounded up', async () => {
    server.provider.failNext('exec', 1, new ProviderCapacityError('memory', 'exec', 'too many sandboxes', 1_200));
    const refused = await api.post('/api/v1/runtimes/exec', { runtime_id: 'rt-a', command: 'true' });
    expectError(refused, 429, 'provider_capacity');
    expect(refused.headers['retry-after']).toBe('2');
    expect(refused.body.details).toMatchObject({ retry_after_ms: 1_200 });
    server.provider.failNext('exec', 1, new ProviderCapacityError('memory', 'exec', 'too many sandboxes'));
    const unknownWait = await api.post('/api/v1/runtimes/exec', { runtime_id: 'rt-a', command: 'true' });
    expectError(unknownWait, 429, 'provider_capacity');
    expect(unknownWait.headers['retry-after']).toBeUndefined();
  });

  it('checkout and pause on a provider without snapshots are 501 unsupported_backend, creating nothing', async () => {
    await api.post('/api/v1/runtimes/open', { runtime_id: 'local-ish', conversation_id: 'c', sender_id: 's', provider: 'nosnap' });
    expectError(await api.post('/api/v1/runtimes/pause', { runtime_id: 'local-ish' }), 501, 'unsupported_backend');
    const checkpoint = await api.post('/api/v1/runtimes/checkpoint', { runtime_id: 'local-ish' });
    if (checkpoint.status === 200) {
      const before = (await api.get('/api/v1/runtimes')).body.runtimes.length;
      expectError(await api.post('/api/v1/runtimes/checkout', { checkpoint_id: checkpoint.body.checkpoint_id }), 501, 'unsupported_backend');
      expect((await api.get('/api/v1/runtimes')).body.runtimes.length).toBe(before);
    } else {
      expectError(checkpoint, 501, 'unsupported_backend');
    }
  });

  it('a provider failure is 502 provider_error naming the call; a provider timeout is 504 provider_timeout', async () => {
    server.provider.failNext('exec');
    const failed = await api.post('/api/v1/runtimes/exec', { runtime_id: 'rt-a', command: 'true' });
    expectError(failed, 502, 'provider_error');
    expect(failed.body.details).toMatchObject({ provider: 'memory', call: 'exec' });
    server.provider.failNext('read_bytes', 1, new ProviderTimeoutError('memory', 'read_bytes', 5_000));
    expectError(await api.post('/api/v1/runtimes/read-file', { runtime_id: 'rt-a', path: 'x' }), 504, 'provider_timeout');
  });

  it('an unexpected error is 500 internal with nothing internal in the body, and its cause logged with the request id', async () => {
    store.breakNext = true;
    const failed = await api.call('GET', '/api/v1/runtimes/rt-a', undefined, { 'x-request-id': 'trace-500' });
    expectError(failed, 500, 'internal');
    expect(failed.body).toEqual({ error: 'internal server error', code: 'internal', details: { request_id: 'trace-500' } });
    expect(failed.raw.body).not.toMatch(/secret|hunter2|refused|at /);
    const logged = server.logs.find((line) => line.request_id === 'trace-500' && line.level === 50);
    expect(logged).toMatchObject({ code: 'internal', err: { message: expect.stringContaining('connection to') } });
  });
});
