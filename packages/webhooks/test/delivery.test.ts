import { afterEach, describe, expect, it } from 'vitest';
import { verifyWebhookSignature, WEBHOOK_LEASE_ID } from '../src/index';
import { engineWorld, event, SECRET, webhook } from './engine-fixtures';
import { startReceiver } from './test-receiver';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function receiver(...args: Parameters<typeof startReceiver>) {
  const started = await startReceiver(...args);
  closers.push(started.close);
  return started;
}

describe('webhook delivery', () => {
  it('a receiver that fails 3 times then succeeds gets the event exactly once per success, every attempt validly signed', async () => {
    const world = engineWorld();
    const target = await receiver((index) => (index < 3 ? 503 : 200));
    const engine = world.engine([webhook(target.url)]);
    await engine.runOnce(); // the webhook's cursor starts at the end of the log
    await world.store.commit({ events: [event('rt-1')] });
    const [appended] = await world.store.listEvents({ afterEventId: 0, limit: 1 });

    expect(await engine.runOnce()).toStrictEqual({ holder: true, delivered: 1, failed: 0 });

    expect(target.received).toHaveLength(4);
    const accepted = target.received.filter((_, index) => index >= 3);
    expect(accepted).toHaveLength(1);
    for (const [index, request] of target.received.entries()) {
      const nowSeconds = Number(/t=(\d+)/.exec(String(request.headers['runtimectl-signature']))![1]);
      expect(verifyWebhookSignature({ secret: SECRET, body: request.body, header: String(request.headers['runtimectl-signature']), nowSeconds })).toBe(true);
      expect(JSON.parse(request.body)).toStrictEqual({ event_id: appended!.eventId, type: 'runtime.opened', at_ms: appended!.atMs, runtime_id: 'rt-1', checkpoint_id: null, data: {} });
      expect(request.headers).toMatchObject({
        'runtimectl-event-id': String(appended!.eventId),
        'runtimectl-webhook-id': 'hook-1',
        'runtimectl-event-type': 'runtime.opened',
        'runtimectl-delivery-attempt': String(index + 1),
        'webhook-id': `hook-1:${appended!.eventId}`,
      });
    }
    // Exponential backoff between the attempts (random = 1: the ceiling), and no real waiting.
    expect(world.time.slept).toStrictEqual([1_000, 2_000, 4_000]);
    const log = await world.store.listWebhookDeliveries({ webhookId: 'hook-1', limit: 10 });
    expect(log.map((delivery) => [delivery.attempt, delivery.outcome, delivery.statusCode, delivery.errorCode])).toStrictEqual([
      [4, 'delivered', 200, null],
      [3, 'retrying', 503, 'http_status'],
      [2, 'retrying', 503, 'http_status'],
      [1, 'retrying', 503, 'http_status'],
    ]);
    expect(await world.store.getWebhookCursor('hook-1')).toMatchObject({ afterEventId: appended!.eventId, failing: false });
    // A later pass sends nothing again.
    await engine.runOnce();
    expect(target.received).toHaveLength(4);
  });

  it('the cursor advances only after a 2xx: an engine stopped mid-retry leaves the event to the next one, which sends it again', async () => {
    const world = engineWorld();
    let failing = true;
    const target = await receiver(() => (failing ? 500 : 204));
    let stopped: Promise<void> | undefined;
    const first = world.engine([webhook(target.url)], {
      sleep: async () => {
        // Stopped between two attempts.
        stopped = first.stop(0);
      },
    });
    await first.runOnce();
    await world.store.commit({ events: [event('rt-1')] });
    await first.runOnce();
    await stopped;
    expect(target.received).toHaveLength(1);
    const cursor = await world.store.getWebhookCursor('hook-1');
    expect(cursor).toMatchObject({ afterEventId: 0, failing: true });

    failing = false;
    const second = world.engine([webhook(target.url)], { nodeId: 'node-b' });
    expect(await second.runOnce()).toMatchObject({ holder: true, delivered: 1 });
    expect(target.received.map((request) => request.headers['runtimectl-event-id'])).toStrictEqual(['1', '1']);
    expect(await world.store.getWebhookCursor('hook-1')).toMatchObject({ afterEventId: 1, failing: false });
  });

  it('after max attempts the event is recorded failed and delivery moves on to the next event', async () => {
    const world = engineWorld();
    const target = await receiver((index) => (index < 3 ? 500 : 200));
    const engine = world.engine([webhook(target.url, { maxAttempts: 3 })]);
    await engine.runOnce();
    await world.store.commit({ events: [event('rt-1'), event('rt-2')] });
    expect(await engine.runOnce()).toStrictEqual({ holder: true, delivered: 1, failed: 1 });
    expect(target.received.map((request) => JSON.parse(request.body).runtime_id)).toStrictEqual(['rt-1', 'rt-1', 'rt-1', 'rt-2']);
    const log = await world.store.listWebhookDeliveries({ webhookId: 'hook-1', limit: 10 });
    expect(log.map((delivery) => [delivery.eventId, delivery.attempt, delivery.outcome])).toStrictEqual([
      [2, 1, 'delivered'],
      [1, 3, 'failed'],
      [1, 2, 'retrying'],
      [1, 1, 'retrying'],
    ]);
    expect(await world.store.getWebhookCursor('hook-1')).toMatchObject({ afterEventId: 2, failing: false });
  });

  it('the delivery log keeps a bounded excerpt of the body, a stable error code for a dead receiver, and never the secret', async () => {
    const world = engineWorld();
    const target = await receiver(() => 400);
    const down = await receiver();
    await down.close();
    const engine = world.engine([webhook(target.url, { maxAttempts: 1 }), webhook(down.url, { id: 'hook-down', maxAttempts: 1 })]);
    await engine.runOnce();
    await world.store.commit({ events: [event('rt-1')] });
    await engine.runOnce();
    const [rejected] = await world.store.listWebhookDeliveries({ webhookId: 'hook-1', limit: 1 });
    expect(rejected).toMatchObject({ outcome: 'failed', statusCode: 400, errorCode: 'http_status' });
    expect(rejected!.responseExcerpt!.startsWith('receiver says no (400)')).toBe(true);
    expect(rejected!.responseExcerpt!.length).toBe(256);
    const [refused] = await world.store.listWebhookDeliveries({ webhookId: 'hook-down', limit: 1 });
    expect(refused).toMatchObject({ outcome: 'failed', statusCode: null, errorCode: 'connection_refused', responseExcerpt: null });
    expect(JSON.stringify([rejected, refused, await world.store.listWebhookCursors()])).not.toContain(SECRET);
  });

  it('a receiver that never answers is cut off at the timeout and recorded as such', async () => {
    const world = engineWorld();
    const target = await receiver(() => 'hang');
    const engine = world.engine([webhook(target.url, { maxAttempts: 1, timeoutMs: 100 })]);
    await engine.runOnce();
    await world.store.commit({ events: [event('rt-1')] });
    await engine.runOnce();
    const [timedOut] = await world.store.listWebhookDeliveries({ webhookId: 'hook-1', limit: 1 });
    expect(timedOut).toMatchObject({ outcome: 'failed', statusCode: null, errorCode: 'timeout' });
  });

  it('event_types and runtime_id filters send only matching events, and the cursor moves past the others', async () => {
    const world = engineWorld();
    const target = await receiver();
    const engine = world.engine([webhook(target.url, { eventTypes: ['runtime.closed'], runtimeId: 'rt-a' })]);
    await engine.runOnce();
    await world.store.commit({ events: [event('rt-a'), event('rt-b', 'runtime.closed'), event('rt-a', 'runtime.closed'), event('rt-a', 'runtime.paused')] });
    await engine.runOnce();
    expect(target.received.map((request) => JSON.parse(request.body))).toMatchObject([{ runtime_id: 'rt-a', type: 'runtime.closed', event_id: 3 }]);
    expect(await world.store.getWebhookCursor('hook-1')).toMatchObject({ afterEventId: 4 });
  });

  it('a webhook configured later gets the events from then on, not the whole log', async () => {
    const world = engineWorld();
    const target = await receiver();
    await world.store.commit({ events: [event('rt-old')] });
    const engine = world.engine([webhook(target.url)]);
    await engine.runOnce();
    await world.store.commit({ events: [event('rt-new')] });
    await engine.runOnce();
    expect(target.received.map((request) => JSON.parse(request.body).runtime_id)).toStrictEqual(['rt-new']);
  });

  it('credentials in the URL are sent as Basic authorization and never shown', async () => {
    const world = engineWorld();
    const target = await receiver();
    const engine = world.engine([webhook(target.url.replace('http://', 'http://hook-user:hook%20pass@'))]);
    await engine.runOnce();
    await world.store.commit({ events: [event('rt-1')] });
    await engine.runOnce();
    expect(target.received[0]!.headers.authorization).toBe(`Basic ${Buffer.from('hook-user:hook pass').toString('base64')}`);
  });

  it('stop lets an attempt in flight run for the drain time, then abandons it unrecorded and gives the lease up', async () => {
    const world = engineWorld();
    const target = await receiver(() => 'hang');
    const engine = world.engine([webhook(target.url, { timeoutMs: 600_000 })]);
    await engine.runOnce();
    await world.store.commit({ events: [event('rt-1')] });
    engine.start();
    await target.requests(1);
    await engine.stop(10);
    expect(await world.store.listWebhookDeliveries({ webhookId: 'hook-1', limit: 10 })).toStrictEqual([]);
    expect(await world.store.getWebhookCursor('hook-1')).toMatchObject({ afterEventId: 0 });
    const successor = await world.store.acquireLease({ runtimeId: WEBHOOK_LEASE_ID, holderId: 'node-b', mode: 'exclusive', ttlMs: 1_000 });
    expect(successor.granted).toBe(true);
  });

  it('events the webhook may not see (visible answers false) are never sent, and its cursor moves past them, also when they come last', async () => {
    const world = engineWorld();
    const target = await receiver(() => 200);
    const engine = world.engine([webhook(target.url, { visible: async (candidate) => candidate.runtimeId === 'mine' })]);
    await engine.runOnce();
    await world.store.commit({ events: [event('theirs'), event('mine'), event('theirs'), event('theirs')] });
    expect(await engine.runOnce()).toStrictEqual({ holder: true, delivered: 1, failed: 0 });
    expect(target.received.map((request) => JSON.parse(request.body).runtime_id)).toStrictEqual(['mine']);
    expect((await world.store.getWebhookCursor('hook-1'))?.afterEventId).toBe(await world.store.lastEventId());
    expect(await engine.runOnce()).toStrictEqual({ holder: true, delivered: 0, failed: 0 });
    expect(target.received).toHaveLength(1);
  });
});
