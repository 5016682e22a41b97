import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHarness } from './harness';

describe('the policy passes run every retention.intervalMs', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('with a 1 s interval an idle pause of 1.5 s happens at the pass at 2 s, not at a fleet heartbeat (every lease_ms)', async () => {
    const h = createHarness({ retention: { intervalMs: 1_000 }, idle: { pauseAfterMs: 1_500 } });
    await h.service.reconcile();
    const id = await h.open();
    await vi.advanceTimersByTimeAsync(1_000);
    expect((await h.service.get(id)).runtime.status).toBe('idle');
    await vi.advanceTimersByTimeAsync(1_000);
    expect((await h.service.get(id)).runtime.status).toBe('paused');
    await h.service.stop();
  });

  it('closes a runtime whose TTL passed at the next pass, and stops with the service', async () => {
    const h = createHarness({ retention: { intervalMs: 1_000 } });
    await h.service.reconcile();
    const { runtime } = await h.service.open({ conversation_id: 'c', sender_id: 's', max_lifetime_ms: 1_000 });
    await vi.advanceTimersByTimeAsync(1_000);
    expect((await h.service.get(runtime.runtime_id)).runtime.status).toBe('closed');
    await h.service.stop();
    const { runtime: later } = await h.service.open({ conversation_id: 'c', sender_id: 's', max_lifetime_ms: 1_000 });
    await vi.advanceTimersByTimeAsync(5_000);
    expect((await h.service.get(later.runtime_id)).runtime.status).toBe('idle');
  });
});
