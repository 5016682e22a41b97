import { describe, expect, it } from 'vitest';
import type { MemoryProviderSettings } from '@runtimectl/testkit';
import { createHarness } from './harness';

/**
 * Issue 39: a runtime is clean only when no API mutation happened since its last snapshot *and*
 * the provider counted no process of its commands running right before that snapshot. The memory
 * provider's `backgroundProcesses` setting plays the jobs a real shell would leave running.
 */
function harnessCounting(count: MemoryProviderSettings['backgroundProcesses']) {
  return createHarness({ provider: { backgroundProcesses: count } });
}

/** A harness whose backends always count none, and how often they were asked. */
function quietHarness() {
  const asked = { count: 0 };
  const h = harnessCounting(() => {
    asked.count += 1;
    return 0;
  });
  return { h, asked };
}

/** An exec: the only operation that may leave processes running (here, as the count setting says). */
async function execOn(h: ReturnType<typeof createHarness>, id: string): Promise<void> {
  await h.service.exec({ runtime_id: id, command: 'echo started' });
}

describe('background processes and the clean state (issue 39)', () => {
  it('a checkpoint taken while processes run leaves the runtime dirty: the next one snapshots again and says so', async () => {
    let running = 2;
    const h = harnessCounting(() => running);
    const id = await h.open();
    await execOn(h, id);
    const first = await h.service.checkpoint({ runtime_id: id });
    expect(first).toMatchObject({ reused_backend_snapshot: false, background_processes: 2 });
    const second = await h.service.checkpoint({ runtime_id: id });
    expect(second).toMatchObject({ reused_backend_snapshot: false, background_processes: 2 });
    expect(h.provider.calls.checkpoint).toBe(2);
    running = 0;
    const third = await h.service.checkpoint({ runtime_id: id });
    expect(third.reused_backend_snapshot).toBe(false);
    expect(third.background_processes).toBeUndefined();
    const fourth = await h.service.checkpoint({ runtime_id: id });
    expect(fourth.reused_backend_snapshot).toBe(true);
    expect(h.provider.calls.checkpoint).toBe(3);
  });

  it('a clean checkpoint reuses the snapshot without asking the provider anything, not even the count', async () => {
    const { h, asked } = quietHarness();
    const id = await h.open();
    await execOn(h, id);
    await h.service.checkpoint({ runtime_id: id });
    expect(asked.count).toBe(1);
    for (let index = 0; index < 3; index += 1) expect((await h.service.checkpoint({ runtime_id: id })).reused_backend_snapshot).toBe(true);
    expect(asked.count).toBe(1);
    expect(h.provider.calls.checkpoint).toBe(1);
  });

  it('the count is taken before the snapshot, not after it', async () => {
    const snapshotsSeenByCount: number[] = [];
    const h = harnessCounting(() => {
      snapshotsSeenByCount.push(h.provider.calls.checkpoint);
      return 0;
    });
    const id = await h.open();
    await execOn(h, id);
    await h.service.checkpoint({ runtime_id: id });
    expect(h.provider.calls.checkpoint).toBe(1);
    expect(snapshotsSeenByCount, 'when counted, the snapshot had not been asked for').toEqual([0]);
  });

  it('a provider that cannot count (no method, or a null answer) never has its runtime recorded clean', async () => {
    for (const count of [false, () => null] as const) {
      const h = harnessCounting(count);
      const id = await h.open();
      await execOn(h, id);
      for (let index = 0; index < 3; index += 1) {
        const checkpoint = await h.service.checkpoint({ runtime_id: id });
        expect(checkpoint.reused_backend_snapshot).toBe(false);
        expect(checkpoint.background_processes).toBeUndefined();
      }
      expect(h.provider.calls.checkpoint).toBe(3);
    }
  });

  it('an answer that is no count (negative, fractional) is taken as "cannot tell"', async () => {
    for (const answer of [-1, 1.5, Number.NaN]) {
      const h = harnessCounting(() => answer);
      const id = await h.open();
      await execOn(h, id);
      await h.service.checkpoint({ runtime_id: id });
      expect((await h.service.checkpoint({ runtime_id: id })).reused_backend_snapshot).toBe(false);
    }
  });

  it('a checkout child of a checkpoint taken while processes ran starts dirty; of one taken at rest, clean', async () => {
    let running = 1;
    const h = harnessCounting(() => running);
    const id = await h.open();
    await execOn(h, id);
    const busy = await h.service.checkpoint({ runtime_id: id });
    running = 0;
    const quiet = await h.service.checkpoint({ runtime_id: id });
    const busyChild = await h.service.checkout({ checkpoint_id: busy.checkpoint_id });
    const quietChild = await h.service.checkout({ checkpoint_id: quiet.checkpoint_id });
    expect((await h.service.checkpoint({ runtime_id: busyChild.runtime.runtime_id })).reused_backend_snapshot).toBe(false);
    expect((await h.service.checkpoint({ runtime_id: quietChild.runtime.runtime_id })).reused_backend_snapshot).toBe(true);
  });

  it('pause says how many processes ran; the runtime resumed from it starts dirty', async () => {
    let running = 3;
    const h = harnessCounting(() => running);
    const id = await h.open();
    await execOn(h, id);
    const paused = await h.service.pause({ runtime_id: id });
    expect(paused.background_processes).toBe(3);
    // A checkpoint of the paused runtime names the pause snapshot, taken while they ran.
    expect((await h.service.checkpoint({ runtime_id: id })).background_processes).toBe(3);
    running = 0;
    await h.service.resume({ runtime_id: id });
    expect((await h.service.checkpoint({ runtime_id: id })).reused_backend_snapshot).toBe(false);
    expect((await h.service.checkpoint({ runtime_id: id })).reused_backend_snapshot).toBe(true);
  });

  it('fork answers the background processes of its checkpoint', async () => {
    const h = harnessCounting(() => 1);
    const id = await h.open();
    await execOn(h, id);
    const fork = await h.service.forkRuntime({ runtime_id: id, count: 2 });
    expect(fork).toMatchObject({ reused_backend_snapshot: false, background_processes: 1 });
  });

  it("a clean checkpoint recorded before counts existed (its ref has none) is not reused: the runtime's next checkpoint snapshots", async () => {
    const h = harnessCounting(() => 0);
    const id = await h.open();
    await execOn(h, id);
    const first = await h.service.checkpoint({ runtime_id: id });
    const stored = (await h.store.getCheckpoint(first.checkpoint_id))!;
    const { backgroundProcesses: _count, ...olderRef } = stored.backendRef!;
    await h.store.commit({ checkpoints: [{ ...stored, backendRef: olderRef }] });
    expect((await h.service.checkpoint({ runtime_id: id })).reused_backend_snapshot).toBe(false);
    expect((await h.service.checkpoint({ runtime_id: id })).reused_backend_snapshot).toBe(true);
  });

  it('a fresh runtime runs nothing: its checkpoints ask for no count until an exec ran', async () => {
    const { h, asked } = quietHarness();
    const id = await h.open();
    await h.write(id, 'a.txt', 'a');
    expect((await h.service.checkpoint({ runtime_id: id })).reused_backend_snapshot).toBe(false);
    expect((await h.service.checkpoint({ runtime_id: id })).reused_backend_snapshot).toBe(true);
    expect(asked.count, 'no exec, no process: nothing to count').toBe(0);
    await execOn(h, id);
    await h.service.checkpoint({ runtime_id: id });
    expect(asked.count).toBe(1);
  });

  it('after a checkpoint counted none, file writes alone need no count: only an exec may start a process', async () => {
    const { h, asked } = quietHarness();
    const id = await h.open();
    await execOn(h, id);
    await h.service.checkpoint({ runtime_id: id });
    expect(asked.count).toBe(1);
    await h.write(id, 'a.txt', 'a');
    await h.service.mkdir({ runtime_id: id, path: 'dir' });
    expect((await h.service.checkpoint({ runtime_id: id })).reused_backend_snapshot).toBe(false);
    expect(asked.count, 'writes since a count of none').toBe(1);
    await execOn(h, id);
    await h.write(id, 'a.txt', 'b');
    await h.service.checkpoint({ runtime_id: id });
    expect(asked.count, 'an exec since').toBe(2);
  });

  it('a provider that cannot count gets reuse until its first exec, never after', async () => {
    const h = harnessCounting(false);
    const id = await h.open();
    await h.write(id, 'a.txt', 'a');
    await h.service.checkpoint({ runtime_id: id });
    expect((await h.service.checkpoint({ runtime_id: id })).reused_backend_snapshot, 'nothing ever ran').toBe(true);
    await execOn(h, id);
    for (let index = 0; index < 2; index += 1) expect((await h.service.checkpoint({ runtime_id: id })).reused_backend_snapshot).toBe(false);
  });

  it('an exec core stopped waiting for at its deadline, still running at the provider, keeps the runtime dirty', async () => {
    const h = createHarness({ timeouts: { execGraceMs: 10 } });
    const id = await h.open();
    await expect(h.service.exec({ runtime_id: id, command: 'block', timeout_ms: 10 })).rejects.toMatchObject({ code: 'provider_timeout' });
    await h.gate.started;
    const during = await h.service.checkpoint({ runtime_id: id });
    expect(during).toMatchObject({ reused_backend_snapshot: false, background_processes: 1 });
    expect((await h.service.checkpoint({ runtime_id: id })).reused_backend_snapshot, 'the exec still runs').toBe(false);
    h.gate.release();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await h.service.checkpoint({ runtime_id: id });
    expect((await h.service.checkpoint({ runtime_id: id })).reused_backend_snapshot, 'the exec has ended').toBe(true);
  });
});
