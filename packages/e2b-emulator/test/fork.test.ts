/** `Sandbox.fork`: `POST /sandboxes/{id}/fork`, count ≤ 100, each fork on its own. */
import { Sandbox, SandboxError, SandboxNotFoundError } from 'e2b';
import { afterEach, describe, expect, it } from 'vitest';
import { useEmulator } from './support/emulator-fixture.js';

const fixture = useEmulator();
const started: Sandbox[] = [];

afterEach(async () => {
  await fixture.emulator.setMaxSandboxes(null);
  await Promise.all(started.splice(0).map((sandbox) => sandbox.kill()));
});

async function createSandbox(): Promise<Sandbox> {
  const sandbox = await Sandbox.create({ ...fixture.sdk, metadata: { role: 'source' } });
  started.push(sandbox);
  return sandbox;
}

function forksOf(results: Array<Sandbox | Error>): Sandbox[] {
  const forks = results.filter((result): result is Sandbox => result instanceof Sandbox);
  started.push(...forks);
  return forks;
}

describe('Sandbox.fork', () => {
  it('a fork starts from the source files, runs on its own and leaves the source running', async () => {
    const source = await createSandbox();
    await source.files.write('/home/user/state.txt', 'before fork');
    const [fork] = forksOf(await source.fork());
    expect(fork).toBeInstanceOf(Sandbox);
    expect(fork!.sandboxId).not.toBe(source.sandboxId);
    expect(await fork!.files.read('/home/user/state.txt')).toBe('before fork');
    await fork!.files.write('/home/user/state.txt', 'changed in fork');
    expect(await source.files.read('/home/user/state.txt')).toBe('before fork');
    expect(await source.isRunning()).toBe(true);
    const info = await fork!.getInfo();
    expect(info.metadata).toEqual({ role: 'source' });
  });

  it('count forks get distinct ids, with the asked timeout', async () => {
    const source = await createSandbox();
    const forks = forksOf(await Sandbox.fork(source.sandboxId, { ...fixture.sdk, count: 3, timeoutMs: 60_000 }));
    expect(new Set(forks.map((fork) => fork.sandboxId)).size).toBe(3);
    const info = await forks[0]!.getInfo();
    expect(info.endAt.getTime() - Date.now()).toBeGreaterThan(50_000);
  });

  it('without a timeout a fork lives 15 s, as E2B', async () => {
    const source = await createSandbox();
    const [fork] = forksOf(await source.fork());
    const info = await fork!.getInfo();
    expect(info.endAt.getTime() - info.startedAt.getTime()).toBe(15_000);
  });

  it('each fork past the concurrency limit fails on its own with RateLimitError', async () => {
    const source = await createSandbox();
    await fixture.emulator.setMaxSandboxes(2);
    const results = await source.fork({ count: 2 });
    expect(forksOf(results)).toHaveLength(1);
    expect(results[1]).toBeInstanceOf(Error);
    expect((results[1] as Error).name).toBe('RateLimitError');
  });

  it('a killed sandbox cannot be forked (SandboxNotFoundError)', async () => {
    const source = await createSandbox();
    await source.kill();
    await expect(source.fork()).rejects.toBeInstanceOf(SandboxNotFoundError);
  });

  it('count below 1 or above 100 is refused with 400 before anything is forked', async () => {
    const source = await createSandbox();
    await expect(source.fork({ count: 0 })).rejects.toThrow(/^400: count must be between 1 and 100/);
    await expect(source.fork({ count: 101 })).rejects.toBeInstanceOf(SandboxError);
    const { sandboxes } = await fixture.emulator.state();
    expect(sandboxes.map((sandbox) => sandbox.sandboxId)).toEqual([source.sandboxId]);
  });
});
