import { afterEach, describe, expect, it } from 'vitest';
import { SandboxKeepAlive, type RefreshOutcome } from './sandbox-keep-alive';

// The keep-alive's own rules, with the refresh answering what E2B would: these cases (a refresh
// racing a snapshot, a refresh that fails transiently) cannot be provoked reliably over the wire.
const keepAlives: SandboxKeepAlive[] = [];
afterEach(() => {
  for (const keepAlive of keepAlives.splice(0)) keepAlive.stopAll();
});

function keepAlive(answers: () => RefreshOutcome) {
  const refreshed: string[] = [];
  const made = new SandboxKeepAlive({
    refresh: async (sandboxId) => {
      refreshed.push(sandboxId);
      return answers();
    },
    goneMessage: 'the sandbox is gone',
  });
  keepAlives.push(made);
  return { made, refreshed };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('SandboxKeepAlive', () => {
  it('refreshes a tracked sandbox about three times per timeout', async () => {
    const { made, refreshed } = keepAlive(() => 'alive');
    made.track('sbx', 300);
    await sleep(650);
    expect(refreshed.length).toBeGreaterThanOrEqual(4);
    expect(made.goneReason('sbx')).toBeUndefined();
  });

  it('a refresh that finds the sandbox gone marks it gone and stops refreshing', async () => {
    const { made, refreshed } = keepAlive(() => 'gone');
    made.track('sbx', 300);
    await sleep(250);
    expect(made.goneReason('sbx')).toBe('the sandbox is gone');
    const count = refreshed.length;
    await sleep(300);
    expect(refreshed.length).toBe(count);
  });

  it('a transient failure keeps the sandbox alive and tries again', async () => {
    let calls = 0;
    const { made } = keepAlive(() => (++calls === 1 ? 'unknown' : 'alive'));
    made.track('sbx', 300);
    await sleep(400);
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(made.goneReason('sbx')).toBeUndefined();
  });

  it('no refresh runs while a snapshot is taken (E2B reports a snapshotting sandbox as not found)', async () => {
    const { made, refreshed } = keepAlive(() => 'gone');
    made.track('sbx', 300);
    const resume = made.suspend('sbx');
    await sleep(450);
    expect(refreshed).toEqual([]);
    expect(made.goneReason('sbx')).toBeUndefined();
    resume();
    await sleep(250);
    expect(made.goneReason('sbx')).toBe('the sandbox is gone');
  });

  it('release marks the sandbox released for old handles and stops refreshing; tracking it again revives it', async () => {
    const { made, refreshed } = keepAlive(() => 'alive');
    made.track('sbx', 300);
    made.released('sbx');
    expect(made.goneReason('sbx')).toBe('the E2B sandbox was released');
    await sleep(250);
    expect(refreshed).toEqual([]);
    made.track('sbx', 300);
    expect(made.goneReason('sbx')).toBeUndefined();
  });

  it('keepOnly starts on a sandbox new to it with a refresh at once', async () => {
    const { made, refreshed } = keepAlive(() => 'alive');
    made.keepOnly(new Map([['adopted', 60_000]]));
    await sleep(50);
    expect(refreshed).toEqual(['adopted']);
    expect(made.trackedSandboxIds()).toEqual(['adopted']);
  });

  it('keepOnly stops refreshing what it leaves out without marking it gone; the same set again changes nothing', async () => {
    const { made, refreshed } = keepAlive(() => 'alive');
    made.keepOnly(new Map([['kept', 300], ['dropped', 300]]));
    await sleep(50);
    made.keepOnly(new Map([['kept', 300]]));
    made.keepOnly(new Map([['kept', 300]]));
    await sleep(400);
    expect(made.trackedSandboxIds()).toEqual(['kept']);
    expect(made.goneReason('dropped')).toBeUndefined();
    expect(refreshed.filter((id) => id === 'dropped')).toEqual(['dropped']);
    expect(refreshed.filter((id) => id === 'kept').length).toBeGreaterThanOrEqual(2);
  });

  it('a sandbox tracked since the previous keepOnly is spared by the next one that leaves it out, not by the one after', () => {
    const { made } = keepAlive(() => 'alive');
    made.track('made-here', 60_000);
    made.keepOnly(new Map());
    expect(made.trackedSandboxIds()).toEqual(['made-here']);
    made.keepOnly(new Map());
    expect(made.trackedSandboxIds()).toEqual([]);
  });

  it('keepOnly does not revive a sandbox found gone', () => {
    const { made } = keepAlive(() => 'alive');
    made.markGone('sbx');
    made.keepOnly(new Map([['sbx', 60_000]]));
    expect(made.goneReason('sbx')).toBe('the sandbox is gone');
    expect(made.trackedSandboxIds()).toEqual([]);
  });
});
