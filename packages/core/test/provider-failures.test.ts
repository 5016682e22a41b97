import { describe, expect, it } from 'vitest';
import { MemoryRuntimeStore, RuntimeService } from '@runtimectl/core';
import { createMemoryProvider, delegatingProvider } from '@runtimectl/testkit';
import { createHarness, rejectionOf } from './harness';

/** A memory provider whose chosen call waits `delayMs` before doing its work. */
function slowProvider(call: 'create' | 'checkout' | 'checkpoint', delayMs: number) {
  const inner = createMemoryProvider();
  const wait = () => new Promise((resolve) => setTimeout(resolve, delayMs));
  const provider = delegatingProvider(inner, {
    create: async (request) => (call === 'create' && (await wait()), inner.create(request)),
    checkpoint: async (backend, request) => (call === 'checkpoint' && (await wait()), inner.checkpoint!(backend, request)),
    checkout: async (request) => (call === 'checkout' && (await wait()), inner.checkout!(request)),
  });
  return { inner, provider };
}

describe('provider failures', () => {
  it('a backend that vanished behind our back marks the runtime failed with what was lost', async () => {
    const h = createHarness();
    const id = await h.open();
    h.provider.destroyBackend(h.provider.liveBackendIds()[0]!);
    // The live backend object is cached, so simulate a restart: a fresh service on the same store.
    const restarted = new RuntimeService({ store: h.store, providers: [h.provider], defaultProvider: 'memory' });
    const error = await rejectionOf(restarted.exec({ runtime_id: id, command: 'true' }));
    expect(error.code).toBe('runtime_failed');
    const detail = await restarted.get(id);
    expect(detail.runtime.status).toBe('failed');
    expect(detail.last_error).toMatch(/memory backend is gone/);
    expect((await rejectionOf(restarted.checkpoint({ runtime_id: id }))).code).toBe('runtime_failed');
    await restarted.close({ runtime_id: id });
  });

  it('after a restart a runtime re-attaches to its backend lazily, on first use', async () => {
    const h = createHarness();
    const id = await h.open();
    await h.write(id, 'a.txt', 'survives');
    const restarted = new RuntimeService({ store: h.store, providers: [h.provider], defaultProvider: 'memory' });
    expect(h.provider.calls.attach).toBe(0);
    const { content_base64 } = await restarted.readFile({ runtime_id: id, path: 'a.txt' });
    expect(Buffer.from(content_base64, 'base64').toString()).toBe('survives');
    expect(h.provider.calls.attach).toBe(1);
  });

  it('a foreign error thrown by a provider is reported generically; its text stays in the cause', async () => {
    // A third-party provider may throw anything: its message can name host paths, ids or keys.
    const inner = createMemoryProvider();
    const leaky = new Error("ENOENT: no such file or directory, open '/var/lib/secret-host-path/bkd_0123' (token sk_live_abc)");
    const provider = delegatingProvider(inner, { checkpoint: async () => Promise.reject(leaky) });
    const service = new RuntimeService({ store: new MemoryRuntimeStore(), providers: [provider], defaultProvider: 'memory' });
    const { runtime } = await service.open({ conversation_id: 'c', sender_id: 's' });
    await service.writeFile({ runtime_id: runtime.runtime_id, path: 'a.txt', content_base64: 'YQ==' });
    const error = await rejectionOf(service.checkpoint({ runtime_id: runtime.runtime_id }));
    expect(error).toMatchObject({ code: 'provider_error', details: { provider: 'memory', call: 'checkpoint' } });
    expect(error.message).toBe('memory checkpoint failed: the provider raised an unexpected error (details in the daemon log)');
    expect(JSON.stringify({ message: error.message, details: error.details })).not.toMatch(/secret-host-path|bkd_0123|sk_live/);
    expect(error.cause).toBe(leaky);
  });

  it('a provider call past its deadline fails with provider_timeout', async () => {
    const { provider } = slowProvider('checkpoint', 200);
    const service = new RuntimeService({
      store: new MemoryRuntimeStore(),
      providers: [provider],
      defaultProvider: 'memory',
      timeouts: { controlMs: 20 },
    });
    const { runtime } = await service.open({ conversation_id: 'c', sender_id: 's' });
    const error = await rejectionOf(service.checkpoint({ runtime_id: runtime.runtime_id }));
    expect(error).toMatchObject({ code: 'provider_timeout', details: { call: 'checkpoint', timeout_ms: 20 } });
  });

  it('a backend created after its deadline passed is released, not leaked', async () => {
    const { inner, provider } = slowProvider('create', 100);
    const service = new RuntimeService({
      store: new MemoryRuntimeStore(),
      providers: [provider],
      defaultProvider: 'memory',
      timeouts: { controlMs: 10 },
    });
    expect((await rejectionOf(service.open({ conversation_id: 'c', sender_id: 's' }))).code).toBe('provider_timeout');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(inner.calls.create).toBe(1);
    expect(inner.liveBackendIds()).toEqual([]);
    expect((await service.list({})).runtimes).toEqual([]);
  });

  it('a snapshot made after its deadline passed is deleted, and its intent resolved', async () => {
    const { inner, provider } = slowProvider('checkpoint', 100);
    const store = new MemoryRuntimeStore();
    const service = new RuntimeService({ store, providers: [provider], defaultProvider: 'memory', timeouts: { controlMs: 10 } });
    const { runtime } = await service.open({ conversation_id: 'c', sender_id: 's' });
    expect((await rejectionOf(service.checkpoint({ runtime_id: runtime.runtime_id }))).code).toBe('provider_timeout');
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(inner.calls.checkpoint).toBe(1);
    expect(inner.snapshotIds()).toEqual([]);
    expect(await store.listIntents()).toEqual([]);
  });

  it('an error a provider throws that is not ours becomes provider_error naming the call', async () => {
    const h = createHarness();
    const id = await h.open();
    h.provider.failNext('read_bytes', 1, new Error('socket hang up'));
    const error = await rejectionOf(h.read(id, 'a.txt'));
    expect(error).toMatchObject({ code: 'provider_error', details: { provider: 'memory', call: 'read_bytes' } });
    expect((error.cause as Error).message).toBe('socket hang up');
  });

  it('reading a missing file answers path_not_found with the path', async () => {
    const h = createHarness();
    const id = await h.open();
    expect(await rejectionOf(h.read(id, 'missing.txt'))).toMatchObject({ code: 'path_not_found', details: { path: 'missing.txt' } });
  });

  it('reports every provider call and operation to the observer', async () => {
    const calls: string[] = [];
    const operations: string[] = [];
    const h = createHarness({
      observer: {
        providerCall: (event) => calls.push(`${event.providerId}:${event.call}:${event.outcome}`),
        operation: (event) => operations.push(`${event.operation}:${event.providerId}:${event.outcome}`),
      },
    });
    const id = await h.open();
    await h.service.checkpoint({ runtime_id: id });
    await rejectionOf(h.service.resume({ runtime_id: id }));
    expect(calls).toEqual(['memory:create:ok', 'memory:checkpoint:ok', 'memory:manifest:ok']);
    expect(operations).toEqual(['open:memory:ok', 'checkpoint:memory:ok', 'resume:memory:runtime_not_paused']);
  });

  it("reports to an operation's onProviderCall exactly that operation's provider calls, also when operations overlap", async () => {
    const observed: string[] = [];
    const h = createHarness({ observer: { providerCall: (event) => observed.push(event.call) } });
    const callsOf = () => {
      const calls: string[] = [];
      return { calls, options: { onProviderCall: (event: { call: string; durationMs: number }) => calls.push(event.call) } };
    };
    const opened = callsOf();
    const { runtime } = await h.service.open({ conversation_id: 'c', sender_id: 's' }, opened.options);
    const id = runtime.runtime_id;
    expect(opened.calls).toEqual(['create']);

    // A blocked exec and a write on the same runtime overlap; each hears only its own call.
    const blocked = callsOf();
    const exec = h.service.exec({ runtime_id: id, command: 'block' }, blocked.options);
    await h.gate.started;
    const written = callsOf();
    await h.service.writeFile({ runtime_id: id, path: 'a.txt', content_base64: 'YQ==' }, written.options);
    expect(written.calls).toEqual(['write_bytes']);
    expect(blocked.calls).toEqual([]);
    h.gate.release();
    await exec;
    expect(blocked.calls).toEqual(['exec']);

    const checkpointed = callsOf();
    const { checkpoint_id } = await h.service.checkpoint({ runtime_id: id }, checkpointed.options);
    const reused = callsOf();
    await h.service.checkpoint({ runtime_id: id }, reused.options);
    const checkedOut = callsOf();
    await h.service.checkout({ checkpoint_id }, checkedOut.options);
    const unobserved = await h.service.readFile({ runtime_id: id, path: 'a.txt' });
    expect(unobserved.content_base64).toBe('YQ==');
    expect(checkpointed.calls).toEqual(['background_processes', 'checkpoint', 'manifest']);
    expect(reused.calls).toEqual([]);
    expect(checkedOut.calls).toEqual(['checkout']);
    // The service observer still hears every call as it ends, the unobserved read included.
    expect(observed).toEqual(['create', 'write_bytes', 'exec', 'background_processes', 'checkpoint', 'manifest', 'checkout', 'read_bytes']);
  });
});
