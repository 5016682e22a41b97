import { openPostgresStore } from '@runtimectl/store-postgres';
import { createTestSchema } from '@runtimectl/testkit/postgres';
import { afterEach, describe, expect, it } from 'vitest';
import { WebhookEngine, type WebhookEngineOptions } from '../src/index';
import { event, webhook } from './engine-fixtures';
import { startReceiver } from './test-receiver';

/** Short, so the takeover test waits about a second for the dead holder's lease to lapse (on the database's clock). */
const LEASE_MS = 1_000;

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Two nodes: two stores (two pools) on one schema of the run's PostgreSQL, a receiver, and an engine per node. */
async function fleet() {
  const { url, schema, drop } = await createTestSchema('webhooks');
  cleanups.push(drop);
  const open = async () => {
    const store = await openPostgresStore({ url, schema, poolSize: 2 });
    cleanups.push(() => store.close());
    return store;
  };
  const stores = [await open(), await open()] as const;
  const target = await startReceiver();
  cleanups.push(target.close);
  const engine = (node: 0 | 1, overrides: Partial<WebhookEngineOptions> = {}) =>
    new WebhookEngine({ store: stores[node], webhooks: [webhook(target.url)], nodeId: `node-${node}`, leaseMs: LEASE_MS, sleep: async () => {}, ...overrides });
  return { stores, target, engine };
}

const eventIdsOf = (requests: Array<{ body: string }>) => requests.map((request) => JSON.parse(request.body).event_id as number);

describe('webhook delivery by a fleet on PostgreSQL', () => {
  it('two nodes deliver each event exactly once: one holds the delivery lease at a time', async () => {
    const { stores, target, engine } = await fleet();
    const nodes = [engine(0), engine(1)];
    await Promise.all(nodes.map((node) => node.runOnce()));
    for (let round = 0; round < 5; round += 1) {
      await stores[round % 2]!.commit({ events: [event(`rt-${round}`), event(`rt-${round}`, 'runtime.closed')] });
      const reports = await Promise.all(nodes.map((node) => node.runOnce()));
      expect(reports.filter((report) => report.holder)).toHaveLength(1);
    }
    const ids = eventIdsOf(target.received);
    expect(ids).toHaveLength(10);
    expect(new Set(ids).size).toBe(10);
    expect([...ids].sort((a, b) => a - b)).toStrictEqual(ids);
  });

  it('after the holder dies the other node takes the lease over once it lapses and resumes from the stored cursor', async () => {
    const { stores, target, engine } = await fleet();
    const [nodeA, nodeB] = [engine(0), engine(1)];
    await nodeA.runOnce();
    await stores[0].commit({ events: [event('rt-1'), event('rt-2')] });
    expect(await nodeA.runOnce()).toMatchObject({ holder: true, delivered: 2 });
    // node-0 dies without a word; meanwhile more happens.
    await stores[1].commit({ events: [event('rt-3'), event('rt-4')] });
    let report = await nodeB.runOnce();
    for (let tries = 0; !report.holder; tries += 1) {
      if (tries > 400) throw new Error('node-1 never took the delivery lease over');
      await new Promise((resolve) => setTimeout(resolve, 25));
      report = await nodeB.runOnce();
    }
    expect(report.delivered).toBe(2);
    const ids = eventIdsOf(target.received);
    expect(ids).toHaveLength(4);
    expect(new Set(ids).size).toBe(4);
    expect((await stores[0].getWebhookCursor('hook-1'))?.afterEventId).toBe(Math.max(...ids));
    // The old holder, back, finds its lease gone and sends nothing.
    expect(await nodeA.runOnce()).toMatchObject({ holder: false });
    expect(target.received).toHaveLength(4);
  });
});
