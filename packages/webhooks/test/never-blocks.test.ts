import { MemoryRuntimeStore, RuntimeService } from '@runtimectl/core';
import { createMemoryProvider } from '@runtimectl/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { WebhookEngine } from '../src/index';
import { webhook } from './engine-fixtures';
import { startReceiver } from './test-receiver';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe('webhooks and operations', () => {
  it('a receiver that never answers does not hold up any operation: they complete while its request hangs', async () => {
    const store = new MemoryRuntimeStore();
    const service = new RuntimeService({ store, providers: [createMemoryProvider()], defaultProvider: 'memory' });
    let answering = false;
    const target = await startReceiver(() => (answering ? 200 : 'hang'));
    closers.push(target.close);
    const engine = new WebhookEngine({
      store,
      webhooks: [webhook(target.url, { timeoutMs: 600_000 })],
      nodeId: 'node-a',
      leaseMs: 15_000,
      waitForEvents: (timeoutMs, abort) => service.eventsAppended(timeoutMs, abort),
    });
    closers.push(() => engine.stop(0));
    await engine.runOnce();
    engine.start();

    const { runtime } = await service.open({ conversation_id: 'c', sender_id: 's' });
    await target.requests(1);
    // The receiver holds the first event's request; every operation still runs to the end.
    await service.writeFile({ runtime_id: runtime.runtime_id, path: 'a.txt', content_base64: Buffer.from('one').toString('base64') });
    const checkpoint = await service.checkpoint({ runtime_id: runtime.runtime_id });
    await service.pause({ runtime_id: runtime.runtime_id });
    await service.resume({ runtime_id: runtime.runtime_id });
    await service.close({ runtime_id: runtime.runtime_id });
    expect(checkpoint.checkpoint_id).toMatch(/^rtcp_/);
    expect(target.received).toHaveLength(1);
    expect((await store.listEvents({ afterEventId: 0, limit: 100 })).length).toBeGreaterThan(4);

    // Once it answers, the events that waited are delivered in order.
    answering = true;
    target.release(200);
    await target.requests(5);
    expect(target.received.slice(0, 5).map((request) => JSON.parse(request.body).type)).toStrictEqual([
      'runtime.opened',
      'checkpoint.created',
      'runtime.paused',
      'runtime.resumed',
      'runtime.closed',
    ]);
  });
});
