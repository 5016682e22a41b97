import { afterEach, describe, expect, it } from 'vitest';
import { engineWorld, event, webhook } from './engine-fixtures';
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

const eventIdsOf = (requests: Array<{ body: string }>) => requests.map((request) => JSON.parse(request.body).event_id as number);

describe('webhook delivery in a fleet', () => {
  it('two nodes on one store deliver each event once: only the delivery lease holder sends', async () => {
    const world = engineWorld();
    const target = await receiver();
    const nodeA = world.engine([webhook(target.url)], { nodeId: 'node-a' });
    const nodeB = world.engine([webhook(target.url)], { nodeId: 'node-b' });
    await Promise.all([nodeA.runOnce(), nodeB.runOnce()]);
    for (let round = 0; round < 5; round += 1) {
      await world.store.commit({ events: [event(`rt-${round}`), event(`rt-${round}`, 'runtime.closed')] });
      const [a, b] = await Promise.all([nodeA.runOnce(), nodeB.runOnce()]);
      expect([a.holder, b.holder].filter(Boolean)).toHaveLength(1);
    }
    expect(eventIdsOf(target.received)).toStrictEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('when the holder dies another node takes the lease over once it lapses and resumes from the stored cursor', async () => {
    const world = engineWorld();
    const target = await receiver();
    const nodeA = world.engine([webhook(target.url)], { nodeId: 'node-a' });
    const nodeB = world.engine([webhook(target.url)], { nodeId: 'node-b' });
    await nodeA.runOnce();
    await world.store.commit({ events: [event('rt-1'), event('rt-2')] });
    expect(await nodeA.runOnce()).toMatchObject({ holder: true, delivered: 2 });
    // node-a dies (no stop, no release): its lease stands until it lapses.
    await world.store.commit({ events: [event('rt-3'), event('rt-4')] });
    expect(await nodeB.runOnce()).toMatchObject({ holder: false, delivered: 0 });
    world.time.nowMs += 15_001;
    expect(await nodeB.runOnce()).toMatchObject({ holder: true, delivered: 2 });
    expect(eventIdsOf(target.received)).toStrictEqual([1, 2, 3, 4]);
    // A node that comes back after losing the lease sends nothing.
    await world.store.commit({ events: [event('rt-5')] });
    expect(await nodeA.runOnce()).toMatchObject({ holder: false });
    await nodeB.runOnce();
    expect(eventIdsOf(target.received)).toStrictEqual([1, 2, 3, 4, 5]);
  });

  it('a holder that dies between attempts leaves the event to its successor: a duplicate only across the crash, with the same webhook-id', async () => {
    const world = engineWorld();
    let failing = true;
    const target = await receiver(() => (failing ? 503 : 200));
    const nodeA = world.engine([webhook(target.url)], { nodeId: 'node-a', sleep: () => new Promise<void>(() => {}) });
    const nodeB = world.engine([webhook(target.url)], { nodeId: 'node-b' });
    await nodeA.runOnce();
    await world.store.commit({ events: [event('rt-1')] });
    void nodeA.runOnce(); // dies in its backoff, never to return
    await target.requests(1);
    failing = false;
    world.time.nowMs += 15_001;
    expect(await nodeB.runOnce()).toMatchObject({ holder: true, delivered: 1 });
    expect(target.received.map((request) => request.headers['webhook-id'])).toStrictEqual(['hook-1:1', 'hook-1:1']);
    expect(await world.store.getWebhookCursor('hook-1')).toMatchObject({ afterEventId: 1, failing: false });
  });
});
