import { describe, expect, it } from 'vitest';
import { createFleet, openOn, writeOn } from './fleet-harness';
import { createHarness, rejectionOf } from './harness';

/** A clock the test moves (no sleeping). */
function testClock(start = 1_700_000_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

/** `count` checkpoints of `runtimeId`, each after a write (so each makes its own snapshot). */
async function checkpoints(h: ReturnType<typeof createHarness>, runtimeId: string, count: number, advance?: (ms: number) => void): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    await h.write(runtimeId, 'f.txt', `v${i}`);
    ids.push((await h.service.checkpoint({ runtime_id: runtimeId })).checkpoint_id);
    advance?.(1_000);
  }
  return ids;
}

const snapshotted = async (h: ReturnType<typeof createHarness>, runtimeId: string) =>
  (await h.service.listCheckpoints(runtimeId)).checkpoints.filter((c) => c.has_provider_snapshot).map((c) => c.checkpoint_id).sort();

describe('retention policies', () => {
  it('keep_last deletes the provider snapshots of older checkpoints, keeps their records, and logs why', async () => {
    const h = createHarness({ retention: { keepLast: 2 } });
    const id = await h.open();
    const [c1, c2, c3, c4] = await checkpoints(h, id, 4);
    await h.write(id, 'f.txt', 'dirty'); // not clean at c4: only the window keeps it
    expect(await h.service.applyRetention()).toMatchObject({ deletedSnapshots: 2, skippedBusy: 0, failed: 0 });
    expect(await snapshotted(h, id)).toEqual([c3, c4].sort());
    expect(h.provider.snapshotIds()).toHaveLength(2);
    expect((await h.service.listCheckpoints(id)).checkpoints).toHaveLength(4);
    const events = (await h.service.listEvents({ types: ['snapshot.deleted', 'policy.acted'] })).events;
    expect(events.filter((e) => e.type === 'snapshot.deleted').map((e) => [e.checkpoint_id, e.data.reason])).toEqual([
      [c1, 'retention'],
      [c2, 'retention'],
    ]);
    expect(events.filter((e) => e.type === 'policy.acted').map((e) => e.data)).toContainEqual({ policy: 'retention', action: 'snapshot_deleted', reasons: ['outside_keep_last'] });
  });

  it('the log\'s times never go back: policy.acted is stamped when it commits, after the snapshot.deleted it follows', async () => {
    // A clock that moves on every read, as a real one does between the pass's steps.
    let now = 1_700_000_000_000;
    const h = createHarness({ clock: () => (now += 1), retention: { keepLast: 1 } });
    const id = await h.open();
    await checkpoints(h, id, 2);
    await h.write(id, 'f.txt', 'dirty');
    expect(await h.service.applyRetention()).toMatchObject({ deletedSnapshots: 1 });
    const events = (await h.service.listEvents({ types: ['snapshot.deleted', 'policy.acted'] })).events;
    expect(events.map((event) => event.type)).toEqual(['snapshot.deleted', 'policy.acted']);
    expect(events[1]!.at_ms).toBeGreaterThanOrEqual(events[0]!.at_ms);
  });

  it('a pinned checkpoint, a paused runtime’s resume point and a checkout’s source snapshot are never deleted', async () => {
    const h = createHarness({ retention: { keepLast: 1 } });
    const id = await h.open('pinned-one');
    const [pinned, , , ] = await checkpoints(h, id, 4);
    await h.service.pinCheckpoint({ checkpoint_id: pinned! });
    const source = await h.open('source');
    const [checkedOut] = await checkpoints(h, source, 2);
    const child = (await h.service.checkout({ checkpoint_id: checkedOut! })).runtime.runtime_id;
    const paused = await h.open('paused');
    await h.write(paused, 'f.txt', 'x');
    const pausePoint = (await h.service.pause({ runtime_id: paused })).checkpoint_id;
    await h.service.applyRetention();
    expect(await snapshotted(h, id)).toContain(pinned);
    expect(await snapshotted(h, source)).toContain(checkedOut);
    expect(await snapshotted(h, paused)).toEqual([pausePoint]);
    expect(await h.read(child, 'f.txt')).toBe('v0');
    await h.service.resume({ runtime_id: paused });
    expect(await h.read(paused, 'f.txt')).toBe('x');
  });

  it('expire_unused keeps a snapshot a checkout used recently and deletes the ones unused for longer (injected clock)', async () => {
    const clock = testClock();
    const h = createHarness({ clock: clock.now, retention: { expireUnusedAfterMs: 60_000 } });
    const id = await h.open();
    const [old, used, latest] = await checkpoints(h, id, 3, clock.advance);
    clock.advance(50_000);
    const child = (await h.service.checkout({ checkpoint_id: used! })).runtime.runtime_id;
    await h.service.close({ runtime_id: child });
    expect((await h.service.getCheckpoint(used!)).last_used_at_ms).toBe(clock.now());
    clock.advance(20_000);
    await h.write(id, 'f.txt', 'dirty');
    await h.service.applyRetention();
    expect(await snapshotted(h, id)).toEqual([used!]);
    expect(old).not.toBe(latest);
  });

  it('a runtime’s own retention at open overrides the daemon’s (none here), and update turns it off again', async () => {
    const h = createHarness();
    const { runtime } = await h.service.open({ conversation_id: 'c', sender_id: 's', retention: { keep_last: 1 } });
    expect((await h.service.get(runtime.runtime_id)).retention).toEqual({ keep_last: 1 });
    const [, second] = await checkpoints(h, runtime.runtime_id, 2);
    await h.write(runtime.runtime_id, 'f.txt', 'dirty');
    await h.service.applyRetention();
    expect(await snapshotted(h, runtime.runtime_id)).toEqual([second]);
    await h.service.update({ runtime_id: runtime.runtime_id, retention: { keep_last: null } });
    await checkpoints(h, runtime.runtime_id, 2);
    expect((await h.service.applyRetention()).deletedSnapshots).toBe(0);
  });

  it('a runtime with an operation in flight is skipped until the next pass', async () => {
    const h = createHarness({ retention: { keepLast: 1 } });
    const id = await h.open();
    await checkpoints(h, id, 3);
    const running = h.service.exec({ runtime_id: id, command: 'block' });
    await h.gate.started;
    expect(await h.service.applyRetention()).toMatchObject({ deletedSnapshots: 0, skippedBusy: 2 });
    h.gate.release();
    await running;
    expect(await h.service.applyRetention()).toMatchObject({ deletedSnapshots: 2, skippedBusy: 0 });
  });

  it('a pass reading a store of several pages lets other work run between its pages (a synchronous store must not hold the event loop for the whole read)', async () => {
    const h = createHarness({ retention: { keepLast: 1_000 } });
    const id = await h.open();
    await h.write(id, 'f.txt', 'x');
    // Clean checkpoints: each one is a snapshotted checkpoint record sharing the first's snapshot.
    for (let i = 0; i < 600; i += 1) await h.service.checkpoint({ runtime_id: id });
    let turns = 0;
    let passing = true;
    const turn = () => {
      if (!passing) return;
      turns += 1;
      setImmediate(turn);
    };
    setImmediate(turn);
    const report = await h.service.applyRetention();
    passing = false;
    expect(report).toMatchObject({ deletedSnapshots: 0, failed: 0 });
    expect(turns).toBeGreaterThanOrEqual(2);
  });

  it('the preview answers what a pass would delete and why, and deletes nothing', async () => {
    const h = createHarness({ retention: { keepLast: 1 } });
    const id = await h.open();
    const [c1, c2] = await checkpoints(h, id, 2);
    const preview = await h.service.retentionPreview({ runtime_id: id });
    expect(preview.checkpoints.map((c) => [c.checkpoint_id, c.delete, c.reasons])).toEqual([
      [c1, true, ['outside_keep_last']],
      [c2, false, ['clean', 'keep_last']],
    ]);
    expect(preview.summary).toEqual({ snapshots_to_delete: 1, checkpoints_to_clear: 1 });
    expect(h.provider.snapshotIds()).toHaveLength(2);
  });

  it('the policy passes report their daemon time as one operation each, expiry, idle_pause and retention (what /metrics shows)', async () => {
    const operations: string[] = [];
    const h = createHarness({ observer: { operation: (event) => operations.push(event.operation) } });
    await h.service.applyPolicies(true);
    expect(operations).toEqual(['expiry', 'idle_pause', 'retention']);
  });

  it('without any policy the preview lists every snapshot as kept by no_policy', async () => {
    const h = createHarness();
    const id = await h.open();
    const [c1] = await checkpoints(h, id, 1);
    const preview = await h.service.retentionPreview({});
    expect(preview.checkpoints.map((c) => [c.checkpoint_id, c.delete, c.reasons])).toEqual([[c1, false, ['clean', 'no_policy']]]);
  });

  it('pin is a control operation: refused with session_busy while the runtime runs one', async () => {
    const h = createHarness();
    const id = await h.open();
    const [c1] = await checkpoints(h, id, 1);
    const running = h.service.checkpoint({ runtime_id: id });
    expect((await rejectionOf(h.service.pinCheckpoint({ checkpoint_id: c1! }))).code).toBe('session_busy');
    await running;
    expect((await h.service.pinCheckpoint({ checkpoint_id: c1! })).checkpoint.pinned).toBe(true);
    expect((await h.service.pinCheckpoint({ checkpoint_id: c1!, pinned: false })).checkpoint.pinned).toBe(false);
  });

  it('a fleet of two nodes applies each retention action once: only the maintenance lease holder runs the pass', async () => {
    const fleet = createFleet({ retention: { keepLast: 1 } });
    const [a, b] = [fleet.node('node-a'), fleet.node('node-b')];
    await a.reconcile();
    await b.reconcile();
    const id = await openOn(a);
    for (let i = 0; i < 3; i += 1) {
      await writeOn(a, id, 'f.txt', `v${i}`);
      await a.checkpoint({ runtime_id: id });
    }
    await writeOn(a, id, 'f.txt', 'dirty');
    await Promise.all([a.applyPolicies(), b.applyPolicies()]);
    await Promise.all([a.applyPolicies(), b.applyPolicies()]);
    expect(fleet.provider.calls.deleteSnapshot).toBe(2);
    expect((await a.listEvents({ types: ['snapshot.deleted'] })).events).toHaveLength(2);
    await a.stop();
    await b.stop();
  });
});
