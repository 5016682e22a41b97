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
});
