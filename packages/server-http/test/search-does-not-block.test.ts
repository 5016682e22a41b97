import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOnLoopback, rawRequest, type RawResponse } from './raw-http';
import { base64, createTestServer, type TestServer } from './test-server';

/** The pattern of issue 32 item 2, longer: backtracking matchers take exponential time over a name of `a`s with no `b`. */
const HOSTILE_GLOB = '*a*a*a*a*a*a*a*a*b';
const NAME_OF_AS = 'a'.repeat(200);

let server: TestServer;
let port: number;

beforeAll(async () => {
  server = createTestServer();
  port = await listenOnLoopback(server.app);
  const post = (path: string, body: unknown) =>
    rawRequest(port, { method: 'POST', path, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect((await post('/api/v1/runtimes/open', { runtime_id: 'rt-glob', conversation_id: 'c', sender_id: 's' })).status).toBe(200);
  expect((await post('/api/v1/runtimes/write-file', { runtime_id: 'rt-glob', path: NAME_OF_AS, content_base64: base64('no b here\n') })).status).toBe(200);
});

afterAll(() => server.app.close());

/** Sends `request`, resolving with the answer and how long it took. */
async function timed(request: Promise<RawResponse>): Promise<RawResponse & { tookMs: number }> {
  const startedMs = Date.now();
  const response = await request;
  return { ...response, tookMs: Date.now() - startedMs };
}

describe('a hostile glob over HTTP', () => {
  // Generous bounds for a noisy machine: a blocking matcher took 28 s for a 10-character pattern.
  it.each([
    ['glob', { glob: HOSTILE_GLOB }, { paths: [], truncated: false }],
    ['grep.include', { grep: { query: 'no b', include: HOSTILE_GLOB } }, { matches: [], truncated: false }],
  ])('search with a hostile %s finishes, and /health answers while it runs', async (_field, search, expected) => {
    const searching = timed(
      rawRequest(port, { method: 'POST', path: '/api/v1/runtimes/search', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ runtime_id: 'rt-glob', ...search }) }),
    );
    const health = await timed(rawRequest(port, { path: '/api/v1/health' }));
    const searched = await searching;
    expect(health.status).toBe(200);
    expect(health.tookMs).toBeLessThan(2_000);
    expect(searched.status).toBe(200);
    expect(searched.body).toEqual(expected);
    expect(searched.tookMs).toBeLessThan(5_000);
  });
});
