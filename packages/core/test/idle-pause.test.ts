import { describe, expect, it } from 'vitest';
import { createFleet, openOn, writeOn } from './fleet-harness';
import { createHarness, rejectionOf } from './harness';

function testClock(start = 1_700_000_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

const IDLE_MS = 60_000;

/** From now on, the runtime is still idle after `ms - 1` and paused by the pass at `ms`. */
async function expectPausedAfterExactly(ms: number, h: ReturnType<typeof createHarness>, clock: ReturnType<typeof testClock>, id: string) {
  clock.advance(ms - 1);
  await h.service.applyPolicies(true);
  expect((await h.service.get(id)).runtime.status).toBe('idle');
  clock.advance(1);
  await h.service.applyPolicies(true);
  expect((await h.service.get(id)).runtime.status).toBe('paused');
}

describe('idle auto-pause (idle_pause_after_ms)', () => {
  it('a runtime with no operation for idle_pause_after_ms is paused by the next policy pass, logged with reason idle', async () => {
    const clock = testClock();
    const h = createHarness({ clock: clock.now });
    const { runtime } = await h.service.open({ conversation_id: 'c', sender_id: 's', idle_pause_after_ms: IDLE_MS });
    const id = runtime.runtime_id;
    expect((await h.service.get(id)).idle_pause_after_ms).toBe(IDLE_MS);
    await h.write(id, 'f.txt', 'kept');
    clock.advance(IDLE_MS - 1);
    expect((await h.service.applyPolicies(true)).idle.paused).toBe(0);
    clock.advance(1);
    expect((await h.service.applyPolicies(true)).idle).toEqual({ paused: 1, skippedBusy: 0, failed: 0 });
    expect((await h.service.get(id)).runtime.status).toBe('paused');
    const events = (await h.service.listEvents({ types: ['runtime.paused', 'policy.acted'] })).events;
    expect(events.map((event) => [event.type, event.data])).toEqual([
      ['runtime.paused', { reason: 'idle' }],
      ['policy.acted', { policy: 'idle', action: 'paused', idle_since_ms: clock.now() - IDLE_MS }],
    ]);
    await h.service.resume({ runtime_id: id });
    expect(await h.read(id, 'f.txt')).toBe('kept');
  });

  it('an operation inside the window restarts the idle time (wall time since open does not count)', async () => {
    const clock = testClock();
    const h = createHarness({ clock: clock.now, idle: { pauseAfterMs: IDLE_MS } });
    const id = await h.open();
    clock.advance(50_000);
    await h.service.exec({ runtime_id: id, command: 'true' });
    clock.advance(50_000);
    expect((await h.service.applyPolicies(true)).idle.paused).toBe(0);
    await h.write(id, 'g.txt', 'y');
    await expectPausedAfterExactly(IDLE_MS, h, clock, id);
  });

  it('time while paused does not count: a resumed runtime is idle from its resume on', async () => {
    const clock = testClock();
    const h = createHarness({ clock: clock.now, idle: { pauseAfterMs: IDLE_MS } });
    const id = await h.open();
    await h.service.pause({ runtime_id: id });
    clock.advance(10 * IDLE_MS);
    expect((await h.service.applyPolicies(true)).idle.paused).toBe(0);
    await h.service.resume({ runtime_id: id });
    await expectPausedAfterExactly(IDLE_MS, h, clock, id);
  });

  it("the daemon's default applies to runtimes without their own; 0 turns it off for one; update sets and clears a runtime's own", async () => {
    const clock = testClock();
    const h = createHarness({ clock: clock.now, idle: { pauseAfterMs: IDLE_MS } });
    const byDefault = await h.open('by-default');
    await h.service.open({ runtime_id: 'off', conversation_id: 'conversation-1', sender_id: 'sender-1', idle_pause_after_ms: 0 });
    const updated = await h.open('updated');
    await h.service.update({ runtime_id: updated, idle_pause_after_ms: 0 });
    expect((await h.service.get(updated)).idle_pause_after_ms).toBe(0);
    await h.service.update({ runtime_id: updated, idle_pause_after_ms: null });
    expect((await h.service.get(updated)).idle_pause_after_ms).toBeNull();
    clock.advance(IDLE_MS);
    expect((await h.service.applyPolicies(true)).idle.paused).toBe(2);
    expect((await h.service.get(byDefault)).runtime.status).toBe('paused');
    expect((await h.service.get(updated)).runtime.status).toBe('paused');
    expect((await h.service.get('off')).runtime.status).toBe('idle');
  });

  it('a provider that cannot pause: idle_pause_after_ms is refused at open and update, and the daemon default passes it over', async () => {
    const clock = testClock();
    const h = createHarness({ clock: clock.now, idle: { pauseAfterMs: IDLE_MS } });
    const refused = await rejectionOf(h.service.open({ conversation_id: 'c', sender_id: 's', provider: 'nosnap', idle_pause_after_ms: IDLE_MS }));
    expect(refused).toMatchObject({ code: 'unsupported_backend', details: { provider: 'nosnap', capability: 'pause' } });
    const id = await h.open(undefined, 'nosnap');
    expect((await rejectionOf(h.service.update({ runtime_id: id, idle_pause_after_ms: IDLE_MS }))).code).toBe('unsupported_backend');
    await h.service.update({ runtime_id: id, idle_pause_after_ms: 0 });
    clock.advance(10 * IDLE_MS);
    expect((await h.service.applyPolicies(true)).idle).toEqual({ paused: 0, skippedBusy: 0, failed: 0 });
    expect((await h.service.get(id)).runtime.status).toBe('idle');
  });

  it('an idle runtime with an operation in flight is skipped until the next pass', async () => {
    const clock = testClock();
    const h = createHarness({ clock: clock.now, idle: { pauseAfterMs: IDLE_MS } });
    const id = await h.open();
    clock.advance(IDLE_MS);
    const running = h.service.exec({ runtime_id: id, command: 'block' });
    await h.gate.started;
    expect((await h.service.applyPolicies(true)).idle).toMatchObject({ paused: 0, skippedBusy: 1 });
    h.gate.release();
    await running;
    clock.advance(IDLE_MS);
    expect((await h.service.applyPolicies(true)).idle).toMatchObject({ paused: 1 });
  });

  it('in a fleet of two nodes, an operation on one node counts on the other once flushed, and the runtime is paused once', async () => {
    const clock = testClock();
    const fleet = createFleet({ clock: clock.now, idle: { pauseAfterMs: IDLE_MS } });
    const [a, b] = [fleet.node('node-a'), fleet.node('node-b')];
    await b.reconcile(); // b holds the maintenance lease: it acts for fleet-wide runtimes
    await a.reconcile();
    const id = await openOn(a);
    clock.advance(50_000);
    await writeOn(a, id, 'f.txt', 'x');
    clock.advance(20_000);
    await a.applyPolicies(); // acts on nothing, but flushes its activity in one write
    expect(fleet.store.commits.at(-1)).toEqual({ sessionMarks: [{ runtimeId: id, activeAtMs: clock.now() - 20_000 }] });
    expect((await b.applyPolicies()).idle.paused).toBe(0);
    clock.advance(IDLE_MS);
    const reports = [await a.applyPolicies(), await b.applyPolicies(), await a.applyPolicies(), await b.applyPolicies()];
    expect(reports.map((report) => report.idle.paused)).toEqual([0, 1, 0, 0]);
    expect((await a.listEvents({ types: ['runtime.paused'] })).events.map((event) => event.runtime_id)).toEqual([id]);
    await a.stop();
    await b.stop();
  });
});
