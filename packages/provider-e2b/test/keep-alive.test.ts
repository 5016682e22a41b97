import { describe, expect, it } from 'vitest';
import { BackendGoneError, MemoryRuntimeStore, RuntimeService, type RuntimectlError } from '@runtimectl/core';
import { createRequest as requestOf, eventually, rejectionOf, useEmulator, useProviders } from './support/emulator-fixture';

// E2B kills a sandbox when its timeout lapses; operations do not extend it. With a 2 s sandbox
// timeout these tests see the emulator expire sandboxes exactly as E2B would.
const emulator = await useEmulator();
const providers = useProviders(emulator);
const provider = (sandboxTimeoutMs: number) => providers({ sandboxTimeoutMs });
const createRequest = () => requestOf('keep-alive-tests');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const isLive = async (sandboxId: unknown) => (await emulator.state()).sandboxes.some((sandbox) => sandbox.sandboxId === sandboxId);
const setTimeoutCalls = async () => (await emulator.state()).calls.set_timeout;

async function goneError(work: Promise<unknown>): Promise<RuntimectlError> {
  const error = await rejectionOf(work);
  if (!BackendGoneError.isInstance(error)) throw new Error(`expected BackendGoneError, got ${String(error)}`, { cause: error });
  return error;
}

describe('keep-alive', () => {
  it('an open backend outlives its 2 s sandbox timeout because the provider refreshes it', async () => {
    const made = provider(2_000);
    const backend = await made.create(createRequest());
    await sleep(4_500);
    expect(await isLive(backend.resource.sandboxId)).toBe(true);
    expect(await setTimeoutCalls()).toBeGreaterThanOrEqual(3);
    const result = await backend.exec({ command: 'echo still here', maxOutputBytes: 1024, timeoutMs: 10_000 });
    expect(Buffer.from(result.stdout).toString()).toBe('still here\n');
    await made.release({ backendId: 'x', resource: backend.resource });
  }, 20_000);

  it('without the keep-alive (a daemon that died) the same sandbox lapses at its timeout', async () => {
    const made = provider(2_000);
    const backend = await made.create(createRequest());
    made.dispose();
    expect(await eventually(async () => !(await isLive(backend.resource.sandboxId)), 6_000)).toBe(true);
  }, 20_000);

  it('release stops the refreshes', async () => {
    const made = provider(1_500);
    const backend = await made.create(createRequest());
    await made.release({ backendId: 'x', resource: backend.resource });
    expect(made.keptAliveSandboxIds()).toEqual([]);
    const calls = await setTimeoutCalls();
    await sleep(1_500);
    expect(await setTimeoutCalls()).toBe(calls);
  });

  it('a sandbox that expired is found by the next refresh; the next operation fails with BackendGoneError without asking envd', async () => {
    const made = provider(1_500);
    const backend = await made.create(createRequest());
    const sandboxId = String(backend.resource.sandboxId);
    await emulator.expireSandbox(sandboxId);
    expect(await eventually(() => !made.keptAliveSandboxIds().includes(sandboxId), 3_000)).toBe(true);
    const envdCalls = (await emulator.state()).calls.files;
    const error = await goneError(backend.readBytes('anything'));
    expect(error.message).toBe('e2b read_bytes failed: the E2B sandbox is gone: it expired or was killed');
    expect((await emulator.state()).calls.files).toBe(envdCalls);
    await made.release({ backendId: 'x', resource: backend.resource });
  });

  it('an operation that meets a sandbox gone before the keep-alive noticed reports BackendGoneError', async () => {
    const made = provider(600_000);
    const backend = await made.create(createRequest());
    const sandboxId = String(backend.resource.sandboxId);
    await emulator.expireSandbox(sandboxId);
    const error = await goneError(backend.exec({ command: 'true', maxOutputBytes: 1024, timeoutMs: 10_000 }));
    expect(error.message).toMatch(/is gone: it expired or was killed/);
    // Known gone from now on: the next call does not even reach the emulator.
    const processCalls = (await emulator.state()).calls.process;
    await goneError(backend.stat('.'));
    expect((await emulator.state()).calls.process).toBe(processCalls);
  });

  it('through core, a runtime stays usable past its sandbox timeout while open, and attach after a restart resumes the refreshes', async () => {
    const store = new MemoryRuntimeStore();
    const original = provider(2_000);
    const before = new RuntimeService({ store, providers: [original], defaultProvider: 'e2b', installationId: 'keep-alive-tests' });
    const { runtime } = await before.open({ conversation_id: 'c', sender_id: 's' });
    await before.writeFile({ runtime_id: runtime.runtime_id, path: 'kept.txt', content_base64: Buffer.from('kept').toString('base64') });
    await sleep(3_000);
    // A second service over the same store (the daemon restarted): attach re-binds and takes over the refresh.
    const restarted = provider(2_000);
    const after = new RuntimeService({ store, providers: [restarted], defaultProvider: 'e2b', installationId: 'keep-alive-tests' });
    original.dispose();
    const read = await after.readFile({ runtime_id: runtime.runtime_id, path: 'kept.txt' });
    expect(Buffer.from(read.content_base64, 'base64').toString()).toBe('kept');
    expect(restarted.keptAliveSandboxIds()).toHaveLength(1);
    await sleep(3_000);
    expect((await after.stat({ runtime_id: runtime.runtime_id, path: 'kept.txt' })).exists).toBe(true);
    await after.close({ runtime_id: runtime.runtime_id });
    expect(restarted.keptAliveSandboxIds()).toEqual([]);
  }, 30_000);
});

const setTimeoutCallsOf = async (sandboxId: unknown) =>
  (await emulator.callLog()).filter((call) => call.operation === 'set_timeout' && call.sandboxId === sandboxId).length;

describe('keepAlive: the set of sandboxes this process refreshes (the fleet duty)', () => {
  it('a sandbox another process made is kept alive by the one told to: refreshed at once, it outlives its timeout after its maker is gone', async () => {
    const maker = provider(2_000);
    const keeper = provider(2_000);
    const backend = await maker.create(createRequest());
    keeper.keepAlive([backend.resource]);
    expect(await eventually(async () => (await setTimeoutCallsOf(backend.resource.sandboxId)) >= 1, 1_000)).toBe(true);
    maker.dispose();
    await sleep(4_500);
    expect(await isLive(backend.resource.sandboxId)).toBe(true);
    expect(keeper.keptAliveSandboxIds()).toEqual([backend.resource.sandboxId]);
  }, 20_000);

  it('a sandbox left out is no longer refreshed, yet neither killed nor marked gone: its backend still works', async () => {
    const made = provider(3_000);
    const backend = await made.create(createRequest());
    made.keepAlive([]); // spares what it made since the previous call (its binding may not be committed yet)
    expect(made.keptAliveSandboxIds()).toEqual([backend.resource.sandboxId]);
    made.keepAlive([]);
    expect(made.keptAliveSandboxIds()).toEqual([]);
    const result = await backend.exec({ command: 'echo usable', maxOutputBytes: 1024, timeoutMs: 10_000 });
    expect(Buffer.from(result.stdout).toString()).toBe('usable\n');
    const calls = await setTimeoutCallsOf(backend.resource.sandboxId);
    await sleep(1_200); // past the refresh interval (a third of 3 s)
    expect(await setTimeoutCallsOf(backend.resource.sandboxId)).toBe(calls);
    expect(await eventually(async () => !(await isLive(backend.resource.sandboxId)), 8_000), 'nobody refreshes it: it lapses').toBe(true);
  }, 20_000);

  it('the same set again costs no extra refresh; a runtime\'s own timeout travels in its resource', async () => {
    const maker = provider(600_000);
    const keeper = provider(600_000);
    const backend = await maker.create(requestOf('keep-alive-tests', { timeout_ms: 1_500 }));
    maker.dispose();
    keeper.keepAlive([backend.resource]);
    keeper.keepAlive([backend.resource]);
    await sleep(2_600);
    // Refreshed at once, then every 500 ms (a third of its own 1.5 s), not every 200 s.
    expect(await isLive(backend.resource.sandboxId)).toBe(true);
    expect(await setTimeoutCallsOf(backend.resource.sandboxId)).toBeLessThanOrEqual(1 + Math.ceil(2_600 / 500));
  }, 20_000);
});

