/** Latency, the concurrency limit, fault injection and timeout expiry, as the real SDK sees them. */
import {
  AuthenticationError,
  CommandExitError,
  FileNotFoundError,
  NotEnoughSpaceError,
  RateLimitError,
  Sandbox,
  SandboxError,
  SandboxNotFoundError,
  ServiceBusyError,
  TimeoutError,
} from 'e2b';
import { existsSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { useEmulator } from './support/emulator-fixture.js';
import { eventually } from './support/eventually.js';

const fixture = useEmulator();

afterEach(async () => {
  const { emulator } = fixture;
  await emulator.reset();
  await emulator.setLatencies({ create: 0, snapshot: 0, process: 0 });
  await emulator.setMaxSandboxes(null);
  for (const entry of (await emulator.state()).sandboxes) await Sandbox.kill(entry.sandboxId, fixture.sdk);
  for (const entry of (await emulator.state()).snapshots) await Sandbox.deleteSnapshot(entry.snapshotId, fixture.sdk);
});

describe('latency', () => {
  it('delays the configured operation by at least its latency and leaves the others alone', async () => {
    const sandbox = await Sandbox.create(fixture.sdk);
    await fixture.emulator.setLatency('snapshot', 800);
    let started = performance.now();
    await sandbox.createSnapshot();
    expect(performance.now() - started).toBeGreaterThanOrEqual(800);
    started = performance.now();
    await sandbox.getInfo();
    expect(performance.now() - started).toBeLessThan(600);
  });
});

describe('call counters', () => {
  it('count each operation, so a test can prove that nothing was snapshotted', async () => {
    const sandbox = await Sandbox.create(fixture.sdk);
    await sandbox.files.write('/home/user/a.txt', 'a');
    await sandbox.commands.run('true');
    const { calls } = await fixture.emulator.state();
    expect(calls).toMatchObject({ create: 1, files: 1, process: 1, snapshot: 0 });
    await fixture.emulator.reset();
    expect((await fixture.emulator.state()).calls.create).toBe(0);
  });
});

describe('sandbox state', () => {
  it("shows each sandbox's namespace: starting, then ready with namespace isolation; none without", async () => {
    const sandbox = await Sandbox.create(fixture.sdk);
    const namespaceOf = async () => (await fixture.emulator.state()).sandboxes.find((entry) => entry.sandboxId === sandbox.sandboxId)?.namespace;
    if (fixture.emulator.isolation.mode !== 'mount-namespace') {
      expect(await namespaceOf()).toBe('none');
      return;
    }
    expect(['starting', 'ready']).toContain(await namespaceOf());
    expect(await eventually(async () => (await namespaceOf()) !== 'starting', 20_000)).toBe(true);
    expect(await namespaceOf()).toBe('ready');
  });
});

describe('concurrent sandbox limit', () => {
  it('answers create beyond the limit with 429, which the SDK raises as RateLimitError', async () => {
    await fixture.emulator.setMaxSandboxes(2);
    const first = await Sandbox.create(fixture.sdk);
    await Sandbox.create(fixture.sdk);
    const error = await Sandbox.create(fixture.sdk).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).message).toContain('maximum number of concurrent E2B sandboxes (2)');

    // Paused sandboxes do not count, but resuming one is subject to the limit.
    await first.pause();
    const third = await Sandbox.create(fixture.sdk);
    await expect(Sandbox.connect(first.sandboxId, fixture.sdk)).rejects.toBeInstanceOf(RateLimitError);
    await third.kill();
    expect((await (await Sandbox.connect(first.sandboxId, fixture.sdk)).getInfo()).state).toBe('running');
  });
});

describe('failNext', () => {
  it('maps control-plane statuses to the SDK error classes e2b-wire.md predicts', async () => {
    const cases: Array<[number, new (...args: never[]) => Error]> = [
      [401, AuthenticationError],
      [429, RateLimitError],
      [503, ServiceBusyError],
      [500, SandboxError],
    ];
    for (const [status, errorClass] of cases) {
      await fixture.emulator.failNext('create', { status, message: `forced ${status}` });
      const error = await Sandbox.create(fixture.sdk).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(errorClass);
      expect((error as Error).message).toContain(`forced ${status}`);
    }
    expect(await Sandbox.create(fixture.sdk)).toBeInstanceOf(Sandbox);
  });

  it('fails exactly count calls, and a 404 on kill reads as "already gone" because the body carries code', async () => {
    const sandbox = await Sandbox.create(fixture.sdk);
    await fixture.emulator.failNext('kill', { status: 404, count: 2 });
    expect(await sandbox.kill()).toBe(false);
    expect(await sandbox.kill()).toBe(false);
    expect(await sandbox.kill()).toBe(true);
  });

  it('maps envd statuses: 507 NotEnoughSpaceError on files, 429 RateLimitError on RPC, 502 TimeoutError', async () => {
    const sandbox = await Sandbox.create(fixture.sdk);
    await fixture.emulator.failNext('files', { status: 507 });
    await expect(sandbox.files.write('/home/user/x', 'x')).rejects.toBeInstanceOf(NotEnoughSpaceError);
    await fixture.emulator.failNext('filesystem', { status: 429 });
    await expect(sandbox.files.exists('/home/user')).rejects.toBeInstanceOf(RateLimitError);
    await fixture.emulator.failNext('process', { status: 429 });
    await expect(sandbox.commands.run('true')).rejects.toBeInstanceOf(RateLimitError);
    await fixture.emulator.failNext('files', { status: 502 });
    await expect(sandbox.files.read('/home/user/x')).rejects.toBeInstanceOf(TimeoutError);
    await fixture.emulator.failNext('files', { status: 404 });
    await expect(sandbox.files.read('/home/user/x')).rejects.toBeInstanceOf(FileNotFoundError);
  });
});

describe('hangNext', () => {
  it('holds a call long enough for the SDK request timeout to fire', async () => {
    const sandbox = await Sandbox.create(fixture.sdk);
    await fixture.emulator.hangNext('filesystem', { ms: 1_500 });
    await expect(sandbox.files.exists('/home/user', { requestTimeoutMs: 300 })).rejects.toBeInstanceOf(TimeoutError);
    await fixture.emulator.hangNext('get_info', { ms: 1_500 });
    // The control plane surfaces its request timeout as the platform's DOMException "TimeoutError".
    await expect(Sandbox.getInfo(sandbox.sandboxId, { ...fixture.sdk, requestTimeoutMs: 300 })).rejects.toMatchObject({
      name: 'TimeoutError',
    });
  });

  it("a held call's fate is decided when it arrives: a failure queued while it is held waits for the next call", async () => {
    const [held, next] = [await Sandbox.create(fixture.sdk), await Sandbox.create(fixture.sdk)];
    const killsBefore = (await fixture.emulator.state()).calls.kill;
    await fixture.emulator.hangNext('kill', { ms: 800 });
    const holding = Sandbox.kill(held.sandboxId, { ...fixture.sdk, requestTimeoutMs: 200 }).catch(() => 'timed out');
    expect(await eventually(async () => (await fixture.emulator.state()).calls.kill === killsBefore + 1)).toBe(true);
    await fixture.emulator.failNext('kill', { status: 429 });
    expect(await holding).toBe('timed out');
    await delay(1_000); // the held kill is carried out meanwhile, and must not take the failure
    const heldIsGone = async () => (await fixture.emulator.state()).sandboxes.every((sandbox) => sandbox.sandboxId !== held.sandboxId || sandbox.state !== 'running');
    expect(await eventually(heldIsGone)).toBe(true);
    await expect(Sandbox.kill(next.sandboxId, fixture.sdk)).rejects.toBeInstanceOf(RateLimitError);
  });
});

describe('dropped process streams', () => {
  it('a stream that ends without the end event is "Process exited without a result"', async () => {
    const sandbox = await Sandbox.create(fixture.sdk);
    await fixture.emulator.dropNextStreams({ count: 1 });
    const error = await sandbox.commands.run('echo partial').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SandboxError);
    expect(error).not.toBeInstanceOf(CommandExitError);
    expect((error as Error).message).toBe('Process exited without a result');
    expect((await sandbox.commands.run('echo fine')).stdout).toBe('fine\n');
  });

  it('a reset connection after start is an SDK error, and the process still runs to completion', async () => {
    const sandbox = await Sandbox.create(fixture.sdk);
    await fixture.emulator.dropNextStreams({ mode: 'reset' });
    await expect(sandbox.commands.run('sleep 0.3; echo done > /home/user/finished')).rejects.toBeInstanceOf(SandboxError);
    // A liveness bound: on a loaded machine the sandbox's namespace alone may take seconds to start.
    expect(await eventually(() => sandbox.files.exists('/home/user/finished'), 30_000)).toBe(true);
    expect(await sandbox.files.read('/home/user/finished')).toBe('done\n');
  });
});

describe('sandbox timeout expiry', () => {
  it('kills the sandbox when its timeout lapses: later control calls 404 and envd answers 502', async () => {
    const sandbox = await Sandbox.create({ ...fixture.sdk, timeoutMs: 1_000 });
    const directory = (await fixture.emulator.state()).sandboxes[0]?.directory;
    await delay(1_600);
    await expect(sandbox.getInfo()).rejects.toBeInstanceOf(SandboxNotFoundError);
    await expect(sandbox.files.read('/home/user/anything')).rejects.toBeInstanceOf(TimeoutError);
    expect(await sandbox.isRunning()).toBe(false);
    expect(await sandbox.kill()).toBe(false);
    expect((await fixture.emulator.state()).sandboxes).toEqual([]);
    // Kill answers at once and removes the directory in the background (after the namespace is down).
    expect(directory).toBeDefined();
    expect(await eventually(() => !existsSync(directory!), 30_000)).toBe(true);
  });

  it('setTimeout pushes the expiry out, and autoPause pauses instead of killing', async () => {
    const kept = await Sandbox.create({ ...fixture.sdk, timeoutMs: 1_000 });
    await kept.setTimeout(60_000);
    const paused = await Sandbox.create({ ...fixture.sdk, timeoutMs: 1_000, lifecycle: { onTimeout: 'pause' } });
    await delay(1_600);
    expect((await kept.getInfo()).state).toBe('running');
    expect((await paused.getInfo()).state).toBe('paused');
  });

  it('expireSandbox lets a timeout lapse on demand', async () => {
    const sandbox = await Sandbox.create(fixture.sdk);
    expect(await fixture.emulator.expireSandbox(sandbox.sandboxId)).toBe(true);
    await expect(sandbox.getInfo()).rejects.toBeInstanceOf(SandboxNotFoundError);
    expect(await fixture.emulator.expireSandbox(sandbox.sandboxId)).toBe(false);
  });
});
