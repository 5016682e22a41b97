import { afterEach, describe, expect, it } from 'vitest';
import { engineWorld, event, webhook } from './engine-fixtures';
import { startReceiver } from './test-receiver';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe('webhooks side by side', () => {
  it('a webhook waiting out its backoff does not hold up another webhook’s later events', async () => {
    const world = engineWorld();
    const failing = await startReceiver(() => 503);
    const healthy = await startReceiver();
    closers.push(failing.close, healthy.close);
    const engine = world.engine([webhook(failing.url, { id: 'down' }), webhook(healthy.url, { id: 'up' })], {
      // The backoff lasts until the engine stops.
      sleep: (_ms, abort) => new Promise<void>((resolve) => abort.addEventListener('abort', () => resolve(), { once: true })),
      pollIntervalMs: 10,
    });
    closers.push(() => engine.stop(0));
    await engine.runOnce();
    engine.start();
    await world.store.commit({ events: [event('rt-1')] });
    await failing.requests(1);
    await healthy.requests(1);
    await world.store.commit({ events: [event('rt-2')] });
    await healthy.requests(2);
    expect(healthy.received.map((request) => JSON.parse(request.body).runtime_id)).toStrictEqual(['rt-1', 'rt-2']);
    expect(failing.received).toHaveLength(1);
  }, 15_000);
});
