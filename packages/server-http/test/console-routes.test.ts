import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CONTENT_SECURITY_POLICY, consoleRoutes } from '../src/index';
import { createTestServer, TEST_TOKEN, type TestServer } from './test-server';

// The console's prebuilt files as the daemon serves them: public (the sign-in page must load
// before a key is entered; the files hold no data), locked down by headers, nothing else reachable.
let assets: string;
let server: TestServer;
const INDEX = '<!doctype html><html lang="en"><title>runtimectl console</title><script type="module" src="./assets/index-abc123.js"></script></html>';

beforeAll(() => {
  assets = mkdtempSync(join(tmpdir(), 'console-assets-'));
  mkdirSync(join(assets, 'assets'));
  writeFileSync(join(assets, 'index.html'), INDEX);
  writeFileSync(join(assets, 'assets', 'index-abc123.js'), 'console.log("console")');
  writeFileSync(join(assets, '.secret'), 'hidden');
  server = createTestServer({ config: { auth: { bearerToken: TEST_TOKEN } }, routes: [consoleRoutes({ assetsDirectory: assets })] });
});

afterAll(async () => {
  await server.app.close();
  rmSync(assets, { recursive: true, force: true });
});

describe('the web console route', () => {
  it('serves index.html at /console/ without a key, with a CSP that allows only this origin and forbids framing', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/console/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toBe(INDEX);
    expect(response.headers['content-security-policy']).toBe(CONSOLE_CONTENT_SECURITY_POLICY);
    expect(CONSOLE_CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect(CONSOLE_CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('redirects /console to /console/ so the relative asset URLs resolve', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/console' });
    expect(response.statusCode).toBe(301);
    expect(response.headers.location).toBe('/console/');
  });

  it('serves hashed assets cacheable for good', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/console/assets/index-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers 404 route_not_found for a missing file and a dotfile', async () => {
    for (const url of ['/console/missing.js', '/console/.secret', '/console/assets/.secret']) {
      const response = await server.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json(), url).toMatchObject({ code: 'route_not_found' });
    }
  });

  it('never serves a file outside the assets, however the path climbs (a path that leaves /console/ is not public)', async () => {
    for (const url of ['/console/../package.json', '/console/%2e%2e/%2e%2e/etc/passwd', '/console/assets/..%2f..%2f.secret', '/console/..%5c..%5cetc%5cpasswd', '/console//etc/passwd']) {
      const response = await server.app.inject({ method: 'GET', url });
      expect([400, 401, 404], url).toContain(response.statusCode);
      expect(response.json(), url).toMatchObject({ code: expect.any(String), error: expect.any(String) });
      expect(response.body, url).not.toMatch(/hidden|root:/);
    }
  });

  it('leaves the API behind the key: the console being public opens nothing else', async () => {
    expect((await server.app.inject({ method: 'GET', url: '/api/v1/runtimes' })).statusCode).toBe(401);
    // Another method on a console path is as any unknown request: the key first, then 405.
    expect((await server.app.inject({ method: 'POST', url: '/console/', payload: {} })).statusCode).toBe(401);
    const post = await server.app.inject({ method: 'POST', url: '/console/', payload: {}, headers: { authorization: `Bearer ${TEST_TOKEN}` } });
    expect(post.statusCode).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
  });
});
