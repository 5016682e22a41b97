import { describe, expect, it } from 'vitest';
import type { IdempotencyRecord } from '@runtimectl/core';
import { createHarness } from './harness';

const claim = (key: string): IdempotencyRecord => ({
  key,
  fingerprint: 'sha256:request',
  state: 'in_flight',
  ownerId: 'daemon-1',
  statusCode: null,
  responseBody: null,
  createdAtMs: Date.now(),
  expiresAtMs: Date.now() + 60_000,
});

describe('Idempotency-Key completion', () => {
  it('each state-changing operation completes the claim in the same commit as its state', async () => {
    const h = createHarness();
    const stored = async (key: string) => (await h.store.claimIdempotencyKey({ ...claim(key), key }))!;
    const opened = await h.service.open({ conversation_id: 'c', sender_id: 's' }, { idempotency: claim('open') });
    const id = opened.runtime.runtime_id;
    const checkpoint = await h.service.checkpoint({ runtime_id: id }, { idempotency: claim('checkpoint') });
    const checkout = await h.service.checkout({ checkpoint_id: checkpoint.checkpoint_id }, { idempotency: claim('checkout') });
    const update = await h.service.update({ runtime_id: id, metadata: { a: 1 } }, { idempotency: claim('update') });
    const pause = await h.service.pause({ runtime_id: id }, { idempotency: claim('pause') });
    const resume = await h.service.resume({ runtime_id: id }, { idempotency: claim('resume') });
    for (const [key, result] of Object.entries({ open: opened, checkpoint, checkout, update, pause, resume })) {
      expect(await stored(key), key).toMatchObject({ state: 'completed', statusCode: 200, responseBody: JSON.stringify(result) });
    }
  });

  it('an operation that fails leaves the claim as it was', async () => {
    const h = createHarness();
    const id = (await h.service.open({ conversation_id: 'c', sender_id: 's' })).runtime.runtime_id;
    await h.store.claimIdempotencyKey(claim('resume'));
    await expect(h.service.resume({ runtime_id: id }, { idempotency: claim('resume') })).rejects.toMatchObject({ code: 'runtime_not_paused' });
    expect(await h.store.claimIdempotencyKey(claim('resume'))).toMatchObject({ state: 'in_flight' });
  });
});
