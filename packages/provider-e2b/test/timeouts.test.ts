import { randomBytes } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { MemoryRuntimeStore, ProviderTimeoutError, RuntimeService } from '@runtimectl/core';
import { Sandbox } from 'e2b';
import { snapshotNameFor } from '../src/snapshot-names';
import { createRequest as requestOf, eventually, rejectionOf, TEST_API_KEY, useEmulator, useProviders } from './support/emulator-fixture';

// Hung E2B calls must end in provider_timeout, whether the provider's own per-request deadline
// (requestTimeoutMs) or core's per-call deadline fires first — and what E2B finishes after the
// caller gave up must not be left behind.
const emulator = await useEmulator();
const providers = useProviders(emulator);
const provider = (requestTimeoutMs: number) => providers({ requestTimeoutMs });
const createRequest = () => requestOf('timeout-tests');

async function timeoutOf(work: Promise<unknown>): Promise<ProviderTimeoutError> {
  const error = await rejectionOf(work);
  if (!ProviderTimeoutError.isInstance(error)) throw new Error(`expected provider_timeout, got ${String(error)}`, { cause: error });
  return error;
}

const sandboxesOf = async (backendId: string) =>
  (await emulator.state()).sandboxes.filter((sandbox) => sandbox.metadata.runtimectl_backend_id === backendId);

describe('through requestTimeoutMs', () => {
  // Whether the emulator still handles a request whose client gave up depends on timing (as
  // with E2B), so the test also makes the "late" sandbox or snapshot itself, once the hung
  // request is over: whichever exists, the sweep must remove it.
  const sdk = { apiKey: TEST_API_KEY, apiUrl: emulator.apiUrl, sandboxUrl: emulator.sandboxUrl };
  const pastTheHang = () => new Promise((resolve) => setTimeout(resolve, 1_200));

  it('a hung create fails with provider_timeout, and a sandbox E2B made for it after all is killed', async () => {
    const request = createRequest();
    await emulator.hangNext('create', { ms: 1_500 });
    const startedAt = Date.now();
    const error = await timeoutOf(provider(500).create(request));
    expect(Date.now() - startedAt).toBeLessThan(1_400);
    expect(error.details).toEqual({ provider: 'e2b', call: 'create', timeout_ms: 500 });
    await pastTheHang();
    const late = await Sandbox.create('base', { ...sdk, metadata: request.labels });
    // The provider's sweep (at 0 s, 5 s, 30 s …) finds it by its backend id and kills it.
    expect(await eventually(async () => (await sandboxesOf(request.backendId)).length === 0, 10_000)).toBe(true);
    expect(await Sandbox.kill(late.sandboxId, sdk)).toBe(false);
  }, 20_000);

  it('a hung snapshot fails with provider_timeout, and a snapshot E2B made for it after all is deleted', async () => {
    // The sandbox comes from a patient provider: on a loaded machine a healthy create can take
    // longer than the 500 ms deadline under test.
    const patient = provider(20_000);
    const backend = await patient.create(createRequest());
    const made = provider(500);
    const labels = { runtimectl_installation: 'timeout-tests', runtimectl_ref_id: `bcp_${randomBytes(16).toString('hex')}` };
    await emulator.hangNext('snapshot', { ms: 1_500 });
    const error = await timeoutOf(made.checkpoint(backend, { labels }));
    expect(error.details).toMatchObject({ call: 'checkpoint' });
    await pastTheHang();
    const name = snapshotNameFor(labels)!;
    await Sandbox.createSnapshot(String(backend.resource.sandboxId), { ...sdk, name });
    const named = async () => (await emulator.state()).snapshots.filter((snapshot) => snapshot.names.some((listed) => listed.includes(name)));
    expect(await named()).toHaveLength(1);
    expect(await eventually(async () => (await named()).length === 0, 10_000)).toBe(true);
    await patient.release({ backendId: 'x', resource: backend.resource });
  }, 20_000);

  it('a create refused outright (4xx) leaves nothing to sweep: no listing follows', async () => {
    await emulator.failNext('create', { status: 400 });
    await provider(500).create(createRequest()).catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await emulator.state()).calls.list).toBe(0);
  });

  // A backend's calls share its provider's deadline, and its healthy set-up calls must fit in it
  // on a loaded machine too: these two tests use a longer one than 500 ms.
  const backendDeadlineMs = 2_000;

  it('a hung file read fails with provider_timeout naming read_bytes', async () => {
    const made = provider(backendDeadlineMs);
    const backend = await made.create(createRequest());
    await backend.writeBytes('a.txt', new Uint8Array([1, 2, 3]));
    await emulator.hangNext('files', { ms: 2 * backendDeadlineMs });
    const error = await timeoutOf(backend.readBytes('a.txt'));
    expect(error.details).toEqual({ provider: 'e2b', call: 'read_bytes', timeout_ms: backendDeadlineMs });
    await made.release({ backendId: 'x', resource: backend.resource });
  });

  it('a command stream that never starts fails with provider_timeout naming exec', async () => {
    const made = provider(backendDeadlineMs);
    const backend = await made.create(createRequest());
    await emulator.hangNext('process', { ms: 2 * backendDeadlineMs });
    const error = await timeoutOf(backend.exec({ command: 'true', maxOutputBytes: 1024, timeoutMs: 10_000 }));
    expect(error.details).toMatchObject({ call: 'exec' });
    await made.release({ backendId: 'x', resource: backend.resource });
  });
});

describe('under garbage-collector pressure', () => {
  // The SDK's own requestTimeoutMs rests on AbortSignal.timeout(), whose timer Node drops once the
  // signal is collected: with frequent GCs a hung request never timed out. The provider's deadline must hold.
  it('a hung create still fails with provider_timeout while the GC runs every 20 ms', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const collecting = setInterval(gc, 20);
    try {
      await emulator.hangNext('create', { ms: 2_500 });
      const startedAt = Date.now();
      const error = await timeoutOf(provider(400).create(createRequest()));
      expect(error.details).toMatchObject({ call: 'create', timeout_ms: 400 });
      expect(Date.now() - startedAt).toBeLessThan(2_000);
    } finally {
      clearInterval(collecting);
    }
    await new Promise((resolve) => setTimeout(resolve, 2_500));
  }, 20_000);
});

describe("through core's deadline", () => {
  /** A service whose core deadlines are `timeouts`, over a provider whose own deadline is far longer. */
  const serviceWith = (timeouts: { controlMs?: number; operationMs?: number; execGraceMs?: number }) =>
    new RuntimeService({ store: new MemoryRuntimeStore(), providers: [provider(20_000)], defaultProvider: 'e2b', installationId: 'timeout-tests', timeouts });

  it('a create hung past core’s control deadline fails with provider_timeout and the late sandbox is released', async () => {
    const service = serviceWith({ controlMs: 500 });
    await emulator.hangNext('create', { ms: 1_500 });
    const error = await timeoutOf(service.open({ runtime_id: 'late-create', conversation_id: 'c', sender_id: 's' }));
    expect(error.details).toEqual({ provider: 'e2b', call: 'create', timeout_ms: 500 });
    // Core releases the backend that arrives after its deadline (the provider's create still finishes).
    const created = async () => (await emulator.state()).sandboxes.filter((sandbox) => sandbox.metadata.runtimectl_runtime_id === 'late-create');
    expect(await eventually(async () => (await emulator.state()).calls.create === 1 && (await created()).length === 0 && (await emulator.state()).calls.kill === 1, 10_000)).toBe(true);
  }, 20_000);

  it('a file read hung past core’s operation deadline fails with provider_timeout', async () => {
    const service = serviceWith({ operationMs: 400, execGraceMs: 100 });
    const { runtime } = await service.open({ conversation_id: 'c', sender_id: 's' });
    await emulator.hangNext('files', { ms: 2_000 });
    const error = await timeoutOf(service.readFile({ runtime_id: runtime.runtime_id, path: 'x' }));
    expect(error.details).toEqual({ provider: 'e2b', call: 'read_bytes', timeout_ms: 400 });
    await service.close({ runtime_id: runtime.runtime_id });
  });
});
