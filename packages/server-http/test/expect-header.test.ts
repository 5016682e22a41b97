import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestServer, TEST_TOKEN, type TestServer } from './test-server';

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request over a real socket: Node answers an unmet `Expect` before fastify sees it. */
function send(baseUrl: string, path: string, headers: Record<string, string>, body?: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const outgoing = request(new URL(path, baseUrl), { method: body === undefined ? 'GET' : 'POST', headers, timeout: 5_000 }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
    });
    outgoing.on('timeout', () => outgoing.destroy(new Error('no answer in 5 s')));
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

describe('Expect header', () => {
  let server: TestServer | undefined;
  afterEach(() => server?.app.close());

  it('an Expect other than 100-continue is 417 with the error body (code invalid_request) and a request id, with or without auth', async () => {
    for (const auth of [undefined, { bearerToken: TEST_TOKEN }]) {
      server = createTestServer({ config: auth ? { auth } : {} });
      const baseUrl = await server.app.listen({ host: '127.0.0.1', port: 0 });
      for (const [path, body] of [
        ['/api/v1/health', undefined],
        ['/api/v1/runtimes/open', JSON.stringify({ conversation_id: 'c', sender_id: 's' })],
      ] as const) {
        const response = await send(baseUrl, path, { expect: '200-ok', 'content-type': 'application/json' }, body);
        expect(response.status, path).toBe(417);
        expect(response.headers['content-type']).toMatch(/^application\/json/);
        expect(response.headers['x-request-id']).toEqual(expect.any(String));
        expect(JSON.parse(response.body)).toEqual({ error: expect.stringMatching(/Expect.*200-ok.*100-continue/), code: 'invalid_request' });
      }
      await server.app.close();
    }
    server = undefined;
  });

  it('Expect: 100-continue still reaches the route', async () => {
    server = createTestServer();
    const baseUrl = await server.app.listen({ host: '127.0.0.1', port: 0 });
    const response = await send(
      baseUrl,
      '/api/v1/runtimes/open',
      { expect: '100-continue', 'content-type': 'application/json' },
      JSON.stringify({ runtime_id: 'rt-continue', conversation_id: 'c', sender_id: 's' }),
    );
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body).runtime.runtime_id).toBe('rt-continue');
  });
});
