import { describe, expect, it } from 'vitest';
import { createMemoryProvider } from '@runtimectl/testkit';
import { asFleetProvider, createFleet, openOn } from './fleet-harness';
import { createHarness, rejectionOf } from './harness';

function testClock(start = 1_700_000_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

describe('runtime TTLs (expires_at_ms, max_lifetime_ms)', () => {
  it('a runtime past its max_lifetime_ms is closed by the next policy pass, its snapshots deleted, and the pass is logged', async () => {
    const clock = testClock();
    const h = createHarness({ clock: clock.now });
    const { runtime } = await h.service.open({ conversation_id: 'c', sender_id: 's', max_lifetime_ms: 60_000 });
    const id = runtime.runtime_id;
    expect((await h.service.get(id)).expires_at_ms).toBe(clock.now() + 60_000);
    await h.write(id, 'f.txt', 'x');
    await h.service.checkpoint({ runtime_id: id });
    clock.advance(59_999);
    expect((await h.service.applyPolicies(true)).expiry.closed).toBe(0);
    clock.advance(1);
    expect((await h.service.applyPolicies(true)).expiry).toEqual({ closed: 1, skippedBusy: 0, failed: 0 });
    expect((await h.service.get(id)).runtime.status).toBe('closed');
    expect(h.provider.snapshotIds()).toEqual([]);
    const acted = (await h.service.listEvents({ types: ['policy.acted'] })).events;
    expect(acted.map((event) => [event.runtime_id, event.data])).toEqual([[id, { policy: 'ttl', action: 'closed', expires_at_ms: clock.now() }]]);
  });

  it('with expiry keeping snapshots the closed runtime keeps them; expires_at_ms and max_lifetime_ms together take the earlier', async () => {
    const clock = testClock();
    const h = createHarness({ clock: clock.now, expiry: { keepSnapshots: true } });
    const { runtime } = await h.service.open({ conversation_id: 'c', sender_id: 's', expires_at_ms: clock.now() + 10, max_lifetime_ms: 60_000 });
    expect((await h.service.get(runtime.runtime_id)).expires_at_ms).toBe(clock.now() + 10);
    await h.write(runtime.runtime_id, 'f.txt', 'x');
    await h.service.checkpoint({ runtime_id: runtime.runtime_id });
    clock.advance(10);
    await h.service.applyPolicies(true);
    expect((await h.service.get(runtime.runtime_id)).runtime.status).toBe('closed');
    expect(h.provider.snapshotIds()).toHaveLength(1);
  });

  it('update moves or clears the TTL; a re-open naming another one conflicts', async () => {
    const clock = testClock();
    const h = createHarness({ clock: clock.now });
    await h.service.open({ runtime_id: 'ttl', conversation_id: 'c', sender_id: 's', max_lifetime_ms: 1_000 });
    await h.service.update({ runtime_id: 'ttl', expires_at_ms: null });
    clock.advance(5_000);
    await h.service.applyPolicies(true);
    expect((await h.service.get('ttl')).runtime.status).toBe('idle');
    await h.service.update({ runtime_id: 'ttl', expires_at_ms: clock.now() + 1 });
    const conflict = await rejectionOf(h.service.open({ runtime_id: 'ttl', conversation_id: 'c', sender_id: 's', max_lifetime_ms: 1 }));
    expect(conflict.code).toBe('runtime_exists');
  });

  it('an operation on a runtime past its TTL is refused with runtime_expired and does not run, before any pass has closed it; close still closes it', async () => {
    const clock = testClock();
    let commandsRun = 0;
    const h = createHarness({ clock: clock.now, provider: { execHandler: async () => void (commandsRun += 1) } });
    const { runtime } = await h.service.open({ conversation_id: 'c', sender_id: 's', max_lifetime_ms: 1_000 });
    const id = runtime.runtime_id;
    await h.write(id, 'f.txt', 'before');
    clock.advance(1_500);
    const operations = [
      () => h.service.exec({ runtime_id: id, command: 'echo ran > ran.txt' }),
      () => h.service.writeFile({ runtime_id: id, path: 'f.txt', content_base64: Buffer.from('after').toString('base64') }),
      () => h.service.readFile({ runtime_id: id, path: 'f.txt' }),
      () => h.service.search({ runtime_id: id, glob: '*' }),
      () => h.service.checkpoint({ runtime_id: id }),
      () => h.service.pause({ runtime_id: id }),
      () => h.service.update({ runtime_id: id, expires_at_ms: clock.now() + 60_000 }),
    ];
    for (const operation of operations) {
      const refusal = await rejectionOf(operation());
      expect(refusal.code).toBe('runtime_expired');
      expect(refusal.details).toEqual({ runtime_id: id, expires_at_ms: clock.now() - 500 });
    }
    expect(commandsRun).toBe(0);
    expect((await h.service.get(id)).runtime.status).toBe('idle');
    expect((await h.service.close({ runtime_id: id })).runtime.status).toBe('closed');
  });

  it('a paused runtime past its TTL is not resumed, by resume or by an auto-resuming operation', async () => {
    const clock = testClock();
    const h = createHarness({ clock: clock.now });
    const { runtime } = await h.service.open({ conversation_id: 'c', sender_id: 's', max_lifetime_ms: 1_000, auto_resume: true });
    await h.service.pause({ runtime_id: runtime.runtime_id });
    clock.advance(1_000);
    expect((await rejectionOf(h.service.resume({ runtime_id: runtime.runtime_id }))).code).toBe('runtime_expired');
    expect((await rejectionOf(h.service.exec({ runtime_id: runtime.runtime_id, command: 'true' }))).code).toBe('runtime_expired');
    expect((await h.service.get(runtime.runtime_id)).runtime.status).toBe('paused');
  });

  it('an expired runtime with an operation in flight is skipped until the next pass', async () => {
    const clock = testClock();
    const h = createHarness({ clock: clock.now });
    const { runtime } = await h.service.open({ conversation_id: 'c', sender_id: 's', max_lifetime_ms: 1 });
    // Admitted before its TTL passed, the operation runs on.
    const running = h.service.exec({ runtime_id: runtime.runtime_id, command: 'block' });
    await h.gate.started;
    clock.advance(1);
    expect((await h.service.applyPolicies(true)).expiry).toMatchObject({ closed: 0, skippedBusy: 1 });
    h.gate.release();
    await running;
    expect((await h.service.applyPolicies(true)).expiry).toMatchObject({ closed: 1 });
  });

  it('in a fleet, a node-local runtime is closed by its home node only, a fleet-wide one by the maintenance holder only', async () => {
    const fleet = createFleet();
    const local = createMemoryProvider({ providerId: 'nodelocal' });
    const providers = [asFleetProvider(fleet.provider), local];
    const [a, b] = [fleet.node('node-a', providers), fleet.node('node-b', providers)];
    await b.reconcile(); // b holds the maintenance lease
    await a.reconcile();
    const { runtime } = await a.open({ conversation_id: 'c', sender_id: 's', provider: 'nodelocal', expires_at_ms: 0 });
    const wide = await openOn(a);
    await a.update({ runtime_id: wide, expires_at_ms: 0 });
    await b.applyPolicies();
    expect((await a.get(runtime.runtime_id)).runtime.status).toBe('idle');
    expect((await a.get(wide)).runtime.status).toBe('closed');
    expect((await a.applyPolicies()).expiry.closed).toBe(1);
    expect((await a.get(runtime.runtime_id)).runtime.status).toBe('closed');
    const acted = (await a.listEvents({ types: ['policy.acted'] })).events.map((event) => event.runtime_id);
    expect(acted.sort()).toEqual([runtime.runtime_id, wide].sort());
    await a.stop();
    await b.stop();
  });
});
