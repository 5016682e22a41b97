import { Sandbox } from 'e2b';
import { afterEach, describe, expect, it } from 'vitest';
import { BackendGoneError, MemoryRuntimeStore, ProviderCapacityError, ProviderError, RuntimeService, type ErrorCode, type ProviderBackend } from '@runtimectl/core';
import type { E2BProvider } from '../src/index';
import {
  createRequest as requestOf,
  eventually,
  runtimectlErrorOf as failure,
  TEST_API_KEY,
  useEmulator,
  useProviders,
} from './support/emulator-fixture';

// Every SDK failure class, provoked for real: the emulator answers the injected status on the
// wire and the real SDK turns it into its error class, which the provider must map.
const emulator = await useEmulator();
const provider = useProviders(emulator);
const backends: Array<{ provider: E2BProvider; backend: ProviderBackend }> = [];
// Registered after useProviders' hook, so it runs before it (vitest runs afterEach hooks in
// reverse): backends are released before the emulator's counters are reset for the next test.
afterEach(async () => {
  for (const { provider, backend } of backends.splice(0)) await provider.release({ backendId: 'x', resource: backend.resource }).catch(() => {});
});
const createRequest = () => requestOf('error-tests');
/** The messages of an error and its causes: what its log line shows. */
const causeChainText = (error: unknown): string =>
  error instanceof Error ? [error.message, causeChainText(error.cause)].filter(Boolean).join(' <- ') : '';

async function liveBackend(made = provider()): Promise<ProviderBackend> {
  const backend = await made.create(createRequest());
  backends.push({ provider: made, backend });
  return backend;
}

describe('control-plane failures map to core errors', () => {
  const cases: Array<{ status: number; code: ErrorCode; kind: string; message: RegExp }> = [
    { status: 401, code: 'provider_error', kind: 'ProviderError', message: /e2b create failed: E2B refused the API key/ },
    { status: 404, code: 'provider_error', kind: 'ProviderError', message: /e2b create failed: 404/ },
    { status: 429, code: 'provider_capacity', kind: 'ProviderCapacityError', message: /e2b create refused for capacity: Rate limit exceeded/ },
    { status: 500, code: 'provider_error', kind: 'ProviderError', message: /e2b create failed: 500: injected/ },
    { status: 503, code: 'provider_capacity', kind: 'ProviderCapacityError', message: /e2b create refused for capacity: Service temporarily unavailable/ },
  ];
  for (const { status, code, kind, message } of cases) {
    it(`a ${status} on create becomes ${kind} (${code}) naming the call`, async () => {
      await emulator.failNext('create', { status, message: 'injected by the test' });
      const error = await failure(provider().create(createRequest()));
      expect(error.code).toBe(code);
      expect(error.name).toBe(kind);
      expect(error.message).toMatch(message);
      expect(error.details).toMatchObject({ provider: 'e2b', call: 'create' });
    });
  }

  it('the concurrent-sandbox limit (429 from E2B) becomes provider_capacity', async () => {
    await emulator.setMaxSandboxes(0);
    try {
      const error = await failure(provider().create(createRequest()));
      expect(ProviderCapacityError.isInstance(error)).toBe(true);
      expect(error.message).toMatch(/maximum number of concurrent E2B sandboxes/);
    } finally {
      await emulator.setMaxSandboxes(null);
    }
  });

  it('a 404 on attach says the sandbox is gone (BackendGoneError) without its id; the cause names it for the log', async () => {
    const error = await failure(provider().attach({ backendId: 'bkd_x', resource: { sandboxId: 'nosuchsandbox0000000' } }));
    expect(BackendGoneError.isInstance(error)).toBe(true);
    expect(error.message).toBe('e2b attach failed: the E2B sandbox is gone: it expired or was killed');
    expect(causeChainText(error)).toContain('nosuchsandbox0000000');
  });

  it('a 500 on snapshot becomes provider_error naming checkpoint, with E2B’s text minus the sandbox id and sandbox paths', async () => {
    const made = provider();
    const backend = await liveBackend(made);
    const sandboxId = String(backend.resource.sandboxId);
    await emulator.failNext('snapshot', { status: 500, message: `disk on fire in sandbox ${sandboxId} at ${backend.workspaceRoot}/big.bin` });
    const error = await failure(made.checkpoint(backend, { labels: {} }));
    expect(error).toMatchObject({ code: 'provider_error', details: { call: 'checkpoint' } });
    expect(error.message).toMatch(/disk on fire in sandbox <sandbox id> at big\.bin/);
    expect(error.message).not.toContain(sandboxId);
    expect(error.message).not.toContain(backend.workspaceRoot);
    expect(causeChainText(error)).toContain(sandboxId);
  });

  it('checkout of a snapshot E2B does not have names no snapshot id', async () => {
    const error = await failure(provider().checkout({ ...createRequest(), snapshotId: 'snapshot-that-never-was-0123' }));
    expect(error.code).toBe('provider_error');
    expect(error.message).not.toContain('snapshot-that-never-was-0123');
  });

  it('deleting a snapshot a live sandbox was created from fails with snapshot_in_use (E2B 400)', async () => {
    const made = provider();
    const backend = await liveBackend(made);
    const snapshot = await made.checkpoint(backend, { labels: {} });
    const child = await made.checkout({ ...createRequest(), snapshotId: snapshot.snapshotId });
    backends.push({ provider: made, backend: child });
    const error = await failure(made.deleteSnapshot(snapshot.snapshotId));
    expect(error.code).toBe('snapshot_in_use');
    await made.release({ backendId: 'x', resource: child.resource });
    expect(await made.deleteSnapshot(snapshot.snapshotId)).toEqual({ deleted: true });
  });

  it('release of a sandbox E2B no longer knows (404) counts as done', async () => {
    const made = provider();
    const backend = await liveBackend(made);
    const killsBefore = (await emulator.state()).calls.kill;
    await made.release({ backendId: 'x', resource: backend.resource });
    await expect(made.release({ backendId: 'x', resource: backend.resource })).resolves.toBeUndefined();
    expect((await emulator.state()).calls.kill).toBe(killsBefore + 2);
  });
});

describe('envd failures map to core errors', () => {
  it('a 429 from envd (files) becomes provider_capacity', async () => {
    const backend = await liveBackend();
    await emulator.failNext('files', { status: 429 });
    const error = await failure(backend.readBytes('anything.txt'));
    expect(error.code).toBe('provider_capacity');
    expect(error.details).toMatchObject({ call: 'read_bytes' });
  });

  it('a 500 from envd (process) becomes provider_error naming exec', async () => {
    const backend = await liveBackend();
    await emulator.failNext('process', { status: 500, message: 'envd broke' });
    const error = await failure(backend.exec({ command: 'echo hi', maxOutputBytes: 1024, timeoutMs: 10_000 }));
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(BackendGoneError.isInstance(error)).toBe(false);
    expect(error.details).toMatchObject({ provider: 'e2b', call: 'exec' });
  });

  it('a command stream cut before its end event becomes provider_error naming exec', async () => {
    const backend = await liveBackend();
    await emulator.dropNextStreams({ mode: 'omit-end' });
    const error = await failure(backend.exec({ command: 'echo hi', maxOutputBytes: 1024, timeoutMs: 10_000 }));
    expect(error.code).toBe('provider_error');
    expect(error.message).toMatch(/e2b exec failed: the command stream ended before the command finished \(Process exited without a result\)/);
  });

  it('a connection reset mid-stream becomes provider_error naming exec, and the backend stays usable', async () => {
    const backend = await liveBackend();
    await emulator.dropNextStreams({ mode: 'reset' });
    const error = await failure(backend.exec({ command: 'echo hi', maxOutputBytes: 1024, timeoutMs: 10_000 }));
    expect(error).toMatchObject({ code: 'provider_error', details: { call: 'exec' } });
    expect(BackendGoneError.isInstance(error)).toBe(false);
    const next = await backend.exec({ command: 'echo again', maxOutputBytes: 1024, timeoutMs: 10_000 });
    expect(Buffer.from(next.stdout).toString()).toBe('again\n');
  });

  it('through core, a sandbox killed behind the daemon’s back marks the runtime failed with a clear message', async () => {
    const made = provider();
    const service = new RuntimeService({ store: new MemoryRuntimeStore(), providers: [made], defaultProvider: 'e2b', installationId: 'error-tests' });
    const { runtime } = await service.open({ conversation_id: 'c', sender_id: 's' });
    const [sandbox] = (await emulator.state()).sandboxes.filter((live) => live.metadata.runtimectl_runtime_id === runtime.runtime_id);
    await emulator.expireSandbox(sandbox!.sandboxId);
    const error = await failure(service.exec({ runtime_id: runtime.runtime_id, command: 'true' }));
    expect(error.code).toBe('runtime_failed');
    expect(error.message).toMatch(/its e2b backend is gone \(.*the E2B sandbox is gone: it expired or was killed\)/);
    expect(error.message).not.toContain(sandbox!.sandboxId);
    expect(causeChainText(error)).toContain(sandbox!.sandboxId);
    const after = await service.get(runtime.runtime_id);
    expect(after.runtime.status).toBe('failed');
    expect(after.last_error).not.toContain(sandbox!.sandboxId);
    const next = await failure(service.stat({ runtime_id: runtime.runtime_id, path: '.' }));
    expect(next.code).toBe('runtime_failed');
    await service.close({ runtime_id: runtime.runtime_id });
  });
});

describe('a sandbox killed or paused behind the provider while exec runs', () => {
  const sdk = () => ({ apiKey: TEST_API_KEY, apiUrl: emulator.apiUrl, sandboxUrl: emulator.sandboxUrl });
  const sandboxIdOf = (backend: ProviderBackend) => String(backend.resource.sandboxId);
  /** Starts a long exec and resolves (with it, wrapped: an async function would await it) once its command runs. */
  async function runningExec(backend: ProviderBackend): Promise<{ exec: Promise<unknown> }> {
    const exec = backend.exec({ command: 'sleep 30', maxOutputBytes: 1024, timeoutMs: 20_000 });
    exec.catch(() => {});
    const connected = await Sandbox.connect(sandboxIdOf(backend), sdk());
    expect(await eventually(async () => (await connected.commands.list()).length > 0, 10_000)).toBe(true);
    return { exec };
  }

  it('killed: the broken stream (SDK TimeoutError) becomes backend_gone, and the backend reads as gone after', async () => {
    const backend = await liveBackend();
    const { exec } = await runningExec(backend);
    await Sandbox.kill(sandboxIdOf(backend), sdk());
    const error = await failure(exec);
    expect(BackendGoneError.isInstance(error)).toBe(true);
    expect(error.details).toMatchObject({ provider: 'e2b', call: 'exec' });
    expect(error.message).toMatch(/is gone: it expired or was killed/);
    expect(BackendGoneError.isInstance(await failure(backend.stat('.')))).toBe(true);
  });

  it('paused: the broken stream becomes provider_error saying the sandbox was paused, not a timeout or gone', async () => {
    const backend = await liveBackend();
    const { exec } = await runningExec(backend);
    await Sandbox.pause(sandboxIdOf(backend), sdk());
    const error = await failure(exec);
    expect(error.code).toBe('provider_error');
    expect(BackendGoneError.isInstance(error)).toBe(false);
    expect(error.details).toMatchObject({ provider: 'e2b', call: 'exec' });
    expect(error.message).toMatch(/e2b exec failed: the E2B sandbox was paused while the call was in flight/);
    expect(error.message).not.toContain(sandboxIdOf(backend));
  });
});
