import { afterEach, describe, expect, it } from 'vitest';
import type { WebhookAttemptOutcome } from '@runtimectl/core';
import { engineWorld, event, webhook } from './engine-fixtures';
import { startReceiver } from './test-receiver';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe('webhook delivery metrics', () => {
  it('onAttempt tells each attempt by webhook and outcome: delivered, failed_attempt (retried), gave_up (out of attempts)', async () => {
    const world = engineWorld();
    const flaky = await startReceiver((index) => (index < 1 ? 503 : 200));
    const dead = await startReceiver(() => 500);
    closers.push(flaky.close, dead.close);
    const attempts: Array<[string, WebhookAttemptOutcome]> = [];
    const engine = world.engine([webhook(flaky.url, { id: 'flaky' }), webhook(dead.url, { id: 'dead', maxAttempts: 2 })], {
      onAttempt: (webhookId, outcome) => attempts.push([webhookId, outcome]),
    });
    await engine.runOnce();
    await world.store.commit({ events: [event('rt-1')] });
    await engine.runOnce();
    expect(attempts.filter(([id]) => id === 'flaky').map(([, outcome]) => outcome)).toEqual(['failed_attempt', 'delivered']);
    expect(attempts.filter(([id]) => id === 'dead').map(([, outcome]) => outcome)).toEqual(['failed_attempt', 'gave_up']);
  });

  it('pendingEvents counts, per webhook, the events of the log after its cursor (none before its first pass)', async () => {
    const world = engineWorld();
    const engine = world.engine([webhook('http://127.0.0.1:9/never', { id: 'a' }), webhook('http://127.0.0.1:9/never', { id: 'b' })]);
    await world.store.commit({ events: [event('rt-0')] });
    expect(await engine.pendingEvents()).toEqual({ a: 0, b: 0 });
    await world.store.recordWebhookProgress({ cursor: { webhookId: 'a', afterEventId: 1, lastSuccessAtMs: null, lastFailureAtMs: null, failing: false } });
    await world.store.commit({ events: [event('rt-1'), event('rt-2'), event('rt-3')] });
    expect(await engine.pendingEvents()).toEqual({ a: 3, b: 0 });
  });
});
