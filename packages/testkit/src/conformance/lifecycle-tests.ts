import { posix } from 'node:path';
import { expect } from 'vitest';
import { BackendGoneError, MemoryRuntimeStore } from '@runtimectl/core';
import { conformanceArea } from './conformance-area';
import type { ProviderConformanceOptions } from './conformance-options';
import { base64, expectRuntimectlError, fromBase64, text, utf8 } from './expect-helpers';

/**
 * create / attach / release: release is idempotent and tolerates unknown backends, attach
 * re-binds to an earlier backend (the daemon-restart path) and reports a vanished one as gone.
 */
export function lifecycleTests(options: ProviderConformanceOptions): void {
  conformanceArea(options, 'lifecycle', ({ harness, test }) => {
    test('create returns a backend with an absolute workspace root and a JSON-serialisable resource', async () => {
      const { backend } = await harness.createBackend();
      expect(posix.isAbsolute(backend.workspaceRoot)).toBe(true);
      expect(JSON.parse(JSON.stringify(backend.resource))).toEqual(backend.resource);
      expect((await backend.stat('.')).kind).toBe('directory');
    });

    test('release of the same backend twice resolves both times', async () => {
      const { request } = await harness.createBackend();
      await harness.provider.release(request);
      await expect(harness.provider.release(request)).resolves.toBeUndefined();
    });

    test('release of a backend this provider never created resolves', async () => {
      await expect(harness.provider.release({ backendId: harness.newBackendId(), resource: {} })).resolves.toBeUndefined();
    });

    test('attach re-binds to a backend created earlier, with its files (the restart path)', async () => {
      const { backend, request } = await harness.createBackend();
      await backend.writeBytes('kept.txt', utf8('before restart'));
      const attached = await harness.provider.attach(request);
      expect(attached.workspaceRoot).toBe(backend.workspaceRoot);
      expect(text(await attached.readBytes('kept.txt'))).toBe('before restart');
      await attached.writeBytes('after.txt', utf8('after restart'));
      expect(text(await backend.readBytes('after.txt'))).toBe('after restart');
    });

    test('attach of a released backend fails with BackendGoneError', async () => {
      const { request } = await harness.createBackend();
      await harness.provider.release(request);
      const error = await expectRuntimectlError(harness.provider.attach(request), 'provider_error');
      expect(BackendGoneError.isInstance(error)).toBe(true);
    });

    test('keepAlive (providers whose backends lapse): a backend left out of the set is neither released nor gone', async (context) => {
      const keepAlive = harness.provider.keepAlive?.bind(harness.provider);
      context.skip(!keepAlive, `provider ${harness.provider.providerId} has no keepAlive (its backends do not lapse), so this does not apply`);
      const kept = await harness.createBackend();
      const left = await harness.createBackend();
      // Twice: a backend made since the previous call may be spared once (core had not registered it yet).
      keepAlive!([kept.backend.resource]);
      keepAlive!([kept.backend.resource]);
      await left.backend.writeBytes('still-here.txt', utf8('usable'));
      expect(text(await left.backend.readBytes('still-here.txt'))).toBe('usable');
      const attached = await harness.provider.attach(left.request);
      expect(text(await attached.readBytes('still-here.txt'))).toBe('usable');
      keepAlive!([]);
      keepAlive!([]);
      expect((await kept.backend.stat('.')).kind).toBe('directory');
    });

    test('two backends do not share files', async () => {
      const first = await harness.createBackend();
      const second = await harness.createBackend();
      await first.backend.writeBytes('only-in-first.txt', utf8('first'));
      expect((await second.backend.stat('only-in-first.txt')).exists).toBe(false);
    });

    test('a RuntimeService restarted over the same store re-attaches and sees the runtime files', async () => {
      const store = new MemoryRuntimeStore();
      const before = harness.createService(store);
      const { runtime } = await before.open({ conversation_id: 'conformance', sender_id: 'lifecycle' });
      await before.writeFile({ runtime_id: runtime.runtime_id, path: 'notes/today.txt', content_base64: base64('persisted') });
      const attachCalls = harness.calls.attach;
      const after = harness.createService(store);
      const read = await after.readFile({ runtime_id: runtime.runtime_id, path: 'notes/today.txt' });
      expect(text(fromBase64(read.content_base64))).toBe('persisted');
      expect(harness.calls.attach).toBe(attachCalls + 1);
    });

    test('a runtime whose backend vanished while the daemon was down is marked failed', async () => {
      const store = new MemoryRuntimeStore();
      const before = harness.createService(store);
      const { runtime } = await before.open({ conversation_id: 'conformance', sender_id: 'lifecycle' });
      const binding = (await store.getSession(runtime.runtime_id))!.backend!;
      await harness.provider.release({ backendId: binding.backendId, resource: binding.resource });
      const after = harness.createService(store);
      await expectRuntimectlError(after.stat({ runtime_id: runtime.runtime_id, path: '.' }), 'runtime_failed');
      expect((await after.get(runtime.runtime_id)).runtime.status).toBe('failed');
    });
  });
}
