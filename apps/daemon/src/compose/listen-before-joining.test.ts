import { createServer } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { listenBeforeJoining } from './listen-before-joining';

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

function pingApp(): FastifyInstance {
  const app = Fastify();
  app.get('/ping', async () => ({ pong: true }));
  apps.push(app);
  return app;
}

const urlOf = (app: FastifyInstance) => `http://127.0.0.1:${(app.server.address() as { port: number }).port}/ping`;
const settledWithin = (promise: Promise<unknown>, ms: number) =>
  Promise.race([promise.then(() => true, () => true), new Promise((resolve) => setTimeout(() => resolve(false), ms))]);

describe('listenBeforeJoining', () => {
  it('holds requests that arrive before the daemon joined the fleet, and serves them once it has', async () => {
    const app = pingApp();
    const gate = await listenBeforeJoining(app, '127.0.0.1', 0);
    const early = fetch(urlOf(app));
    expect(await settledWithin(early, 300)).toBe(false);
    gate.open();
    expect(await (await early).json()).toEqual({ pong: true });
    expect((await fetch(urlOf(app))).status).toBe(200);
  });

  it('closes the held connections unanswered when the start fails after binding', async () => {
    const app = pingApp();
    const gate = await listenBeforeJoining(app, '127.0.0.1', 0);
    const early = fetch(urlOf(app));
    expect(await settledWithin(early, 300)).toBe(false);
    gate.abandon();
    await expect(early).rejects.toThrow();
  });

  it('never serves a request that arrives after the start failed, before the server is closed', async () => {
    const app = pingApp();
    const gate = await listenBeforeJoining(app, '127.0.0.1', 0);
    gate.abandon();
    await expect(fetch(urlOf(app))).rejects.toThrow();
    await app.close();
  });

  it('an address another process holds is refused with one line naming it, before anything else happens', async () => {
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    const { port } = squatter.address() as { port: number };
    try {
      await expect(listenBeforeJoining(pingApp(), '127.0.0.1', port)).rejects.toThrow(
        `could not listen on 127.0.0.1:${port}: another process holds that address (EADDRINUSE); this node did not join the fleet`,
      );
    } finally {
      squatter.close();
    }
  });
});
