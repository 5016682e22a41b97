import { describe, expect, it } from 'vitest';
import { RuntimeService, type RuntimeEvent } from '@runtimectl/core';
import { createHarness } from './harness';

const summary = (events: RuntimeEvent[]) => events.map((event) => [event.type, event.runtimeId, event.checkpointId, event.data]);

describe('lifecycle events', () => {
  it('a runtime’s life is in the event log, in order, each event committed with its change', async () => {
    const h = createHarness();
    const id = await h.open();
    await h.write(id, 'a.txt', 'one');
    const first = await h.service.checkpoint({ runtime_id: id });
    const again = await h.service.checkpoint({ runtime_id: id });
    const paused = await h.service.pause({ runtime_id: id });
    await h.service.resume({ runtime_id: id });
    await h.service.close({ runtime_id: id });
    const events = await h.store.listEvents({ afterEventId: 0, limit: 100 });
    expect(summary(events)).toEqual([
      ['runtime.opened', id, null, { provider: 'memory' }],
      ['checkpoint.created', id, first.checkpoint_id, { reused_backend_snapshot: false }],
      ['checkpoint.created', id, again.checkpoint_id, { reused_backend_snapshot: true }],
      ['runtime.paused', id, paused.checkpoint_id, {}],
      ['runtime.resumed', id, paused.checkpoint_id, { reason: 'request' }],
      ['runtime.closed', id, null, { keep_snapshots: false }],
      ['snapshot.deleted', id, first.checkpoint_id, { reason: 'close' }],
      ['snapshot.deleted', id, again.checkpoint_id, { reason: 'close' }],
      ['snapshot.deleted', id, paused.checkpoint_id, { reason: 'close' }],
    ]);
    for (const event of events) expect(event.atMs).toBeGreaterThan(0);
  });

  it('a checkout child’s creation names its checkpoint and source; a manual snapshot delete names its reason', async () => {
    const h = createHarness();
    const id = await h.open();
    await h.write(id, 'a.txt', 'one');
    const { checkpoint_id } = await h.service.checkpoint({ runtime_id: id });
    const { runtime } = await h.service.checkout({ checkpoint_id });
    await h.service.close({ runtime_id: runtime.runtime_id, keep_snapshots: true });
    await h.service.deleteCheckpointSnapshot({ checkpoint_id });
    const events = await h.store.listEvents({ afterEventId: 0, limit: 100, types: ['checkout.created', 'snapshot.deleted'] });
    expect(summary(events)).toEqual([
      ['checkout.created', runtime.runtime_id, checkpoint_id, { source_runtime_id: id }],
      ['snapshot.deleted', id, checkpoint_id, { reason: 'manual' }],
    ]);
  });

  it('a runtime whose backend vanished is marked failed with a runtime.failed event giving the reason', async () => {
    const h = createHarness();
    const id = await h.open();
    h.provider.destroyBackend(h.provider.liveBackendIds()[0]!);
    // The live backend object is cached, so a fresh service on the same store (a restart) finds it gone.
    const restarted = new RuntimeService({ store: h.store, providers: [h.provider], defaultProvider: 'memory' });
    await restarted.exec({ runtime_id: id, command: 'echo hi' }).catch(() => undefined);
    const [failed] = await h.store.listEvents({ afterEventId: 0, limit: 10, types: ['runtime.failed'] });
    expect(failed).toMatchObject({ runtimeId: id, data: { reason: expect.stringContaining('backend is gone') } });
  });
});

describe('event log retention', () => {
  it('the maintenance holder prunes events older than events.retentionMs; younger ones stay', async () => {
    let now = 1_800_000_000_000;
    const h = createHarness({ clock: () => now, events: { retentionMs: 60_000 } });
    await h.service.reconcile();
    const old = await h.open();
    now += 50_000;
    const young = await h.open();
    now += 20_000; // the first event is 70 s old, the second 20 s
    await h.service.maintain();
    const left = await h.store.listEvents({ afterEventId: 0, limit: 10 });
    expect(left.map((event) => event.runtimeId)).toEqual([young]);
    expect(left.map((event) => event.runtimeId)).not.toContain(old);
    await h.service.stop();
  });
});

describe('webhook delivery log retention', () => {
  it('the maintenance holder prunes webhook delivery attempts with the event log’s retention; cursors stay', async () => {
    let now = 1_800_000_000_000;
    const h = createHarness({ clock: () => now, events: { retentionMs: 60_000 } });
    await h.service.reconcile();
    const attempt = { webhookId: 'hook', attempt: 1, outcome: 'delivered' as const, statusCode: 200, errorCode: null, responseExcerpt: null, durationMs: 1 };
    await h.store.recordWebhookProgress({ deliveries: [{ ...attempt, eventId: 1, atMs: now }] });
    now += 50_000;
    await h.store.recordWebhookProgress({ deliveries: [{ ...attempt, eventId: 2, atMs: now }], cursor: { webhookId: 'hook', afterEventId: 2, lastSuccessAtMs: now, lastFailureAtMs: null, failing: false } });
    now += 20_000;
    await h.service.maintain();
    const left = await h.store.listWebhookDeliveries({ webhookId: 'hook', limit: 10 });
    expect(left.map((delivery) => delivery.eventId)).toEqual([2]);
    expect((await h.store.getWebhookCursor('hook'))?.afterEventId).toBe(2);
    await h.service.stop();
  });
});
