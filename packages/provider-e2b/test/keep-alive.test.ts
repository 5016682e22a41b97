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
