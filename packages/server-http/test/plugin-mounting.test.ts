import { MemoryRuntimeStore, RuntimeService } from '@runtimectl/core';
import { createMemoryProvider } from '@runtimectl/testkit';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { runtimeApiPlugin } from '../src/index';

describe('runtimeApiPlugin mounted in another app', () => {
  it('serves the API while its hooks, auth and error handler stay encapsulated', async () => {
    const service = new RuntimeService({ store: new MemoryRuntimeStore(), providers: [createMemoryProvider()], defaultProvider: 'memory' });
    const app = Fastify();
    app.get('/host/ping', async () => {
      throw Object.assign(new Error('host error'), { statusCode: 418 });
    });
    await app.register(runtimeApiPlugin, { service, version: '1.2.3', auth: { bearerToken: 'tok' } });

    const health = await app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(health.json()).toEqual({ status: 'ok', version: '1.2.3' });
    expect((await app.inject({ method: 'GET', url: '/api/v1/providers' })).statusCode).toBe(401);
    const providers = await app.inject({ method: 'GET', url: '/api/v1/providers', headers: { authorization: 'Bearer tok' } });
    expect(providers.statusCode).toBe(200);
    expect(providers.headers['x-request-id']).toEqual(expect.any(String));

    // The host's own route: no auth, no x-request-id, fastify's default error handler.
    const host = await app.inject({ method: 'GET', url: '/host/ping' });
    expect(host.statusCode).toBe(418);
    expect(host.headers['x-request-id']).toBeUndefined();
    expect(host.json()).toMatchObject({ message: 'host error' });
    await app.close();
  });
});
