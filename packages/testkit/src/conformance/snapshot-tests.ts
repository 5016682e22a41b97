import { expect, type TestContext } from 'vitest';
import { providerCapabilities, ProviderSnapshotNotFoundError, UnsupportedBackendError, type ProviderCapabilities } from '@runtimectl/core';
import { conformanceArea } from './conformance-area';
import type { ProviderConformanceOptions } from './conformance-options';
import { base64, expectRuntimectlError, fromBase64, text, utf8 } from './expect-helpers';

/** The yes-or-no capabilities (not `snapshot_kind`, which says what a snapshot holds). */
type Capability = Exclude<keyof ProviderCapabilities, 'snapshot_kind' | 'restore_verification'>;

/**
 * Snapshots. Which tests run is read from `providerCapabilities(provider)` — from the methods the
 * provider has, never from an option. With a method present, its behaviour is pinned down; with
 * it absent, those tests skip saying so, and the "absent" tests prove core refuses checkout and
 * pause with `unsupported_backend` before any side effect while checkpoint still works.
 */
export function snapshotTests(options: ProviderConformanceOptions): void {
  conformanceArea(options, 'snapshots', ({ harness, test }) => {
    /** Skips unless the provider has every capability in `needed`, naming what is missing. */
    const requireCapabilities = (context: TestContext, ...needed: Capability[]) => {
      const capabilities = providerCapabilities(harness.provider);
      const missing = needed.filter((capability) => !capabilities[capability]);
      context.skip(
        missing.length > 0,
        `provider ${harness.provider.providerId} has no ${missing.join(', ')} capability (providerCapabilities: the method is absent), so this does not apply`,
      );
    };
    /** Skips when the provider has `capability`: the test is about its absence. */
    const requireAbsent = (context: TestContext, capability: Capability) => {
      context.skip(
        providerCapabilities(harness.provider)[capability],
        `provider ${harness.provider.providerId} supports ${capability}; this test covers providers without it`,
      );
    };

    const openRuntime = async () => {
      const service = harness.createService();
      const { runtime } = await service.open({ conversation_id: 'conformance', sender_id: 'snapshots' });
      await service.writeFile({ runtime_id: runtime.runtime_id, path: 'state.txt', content_base64: base64('checkpointed') });
      return { service, runtimeId: runtime.runtime_id };
    };
    const readText = async (service: Awaited<ReturnType<typeof openRuntime>>['service'], runtimeId: string, path: string) =>
      text(fromBase64((await service.readFile({ runtime_id: runtimeId, path })).content_base64));

    test('checkout of a snapshot restores the checkpointed bytes, not later writes', async (context) => {
      requireCapabilities(context, 'snapshot', 'checkout');
      const { backend, request } = await harness.createBackend();
      await backend.writeBytes('state.txt', utf8('checkpointed'));
      const snapshot = await harness.provider.checkpoint!(backend, { name: 'conformance', labels: harness.snapshotLabels(request) });
      expect(typeof snapshot.snapshotId).toBe('string');
      await backend.writeBytes('state.txt', utf8('written after the checkpoint'));
      await backend.writeBytes('later.txt', utf8('later'));
      const { backend: restored } = await harness.checkoutBackend(snapshot.snapshotId);
      expect(text(await restored.readBytes('state.txt'))).toBe('checkpointed');
      expect((await restored.stat('later.txt')).exists).toBe(false);
    });

    test('a checked-out backend and its source do not share later writes', async (context) => {
      requireCapabilities(context, 'snapshot', 'checkout');
      const { backend, request } = await harness.createBackend();
      const snapshot = await harness.provider.checkpoint!(backend, { labels: harness.snapshotLabels(request) });
      const { backend: child } = await harness.checkoutBackend(snapshot.snapshotId);
      await child.writeBytes('child-only.txt', utf8('child'));
      await backend.writeBytes('source-only.txt', utf8('source'));
      expect((await backend.stat('child-only.txt')).exists).toBe(false);
      expect((await child.stat('source-only.txt')).exists).toBe(false);
    });

    test('deleteSnapshot twice reports deleted:true, then deleted:false', async (context) => {
      requireCapabilities(context, 'snapshot', 'delete_snapshot');
      const { backend, request } = await harness.createBackend();
      const snapshot = await harness.provider.checkpoint!(backend, { labels: harness.snapshotLabels(request) });
      expect(await harness.provider.deleteSnapshot!(snapshot.snapshotId)).toEqual({ deleted: true });
      expect(await harness.provider.deleteSnapshot!(snapshot.snapshotId)).toEqual({ deleted: false });
    });

    test('checkout of a snapshot the provider no longer has throws ProviderSnapshotNotFoundError', async (context) => {
      requireCapabilities(context, 'snapshot', 'checkout', 'delete_snapshot');
      const { backend, request } = await harness.createBackend();
      const snapshot = await harness.provider.checkpoint!(backend, { labels: harness.snapshotLabels(request) });
      await harness.provider.deleteSnapshot!(snapshot.snapshotId);
      const error = await expectRuntimectlError(harness.checkoutBackend(snapshot.snapshotId), 'provider_error');
      expect(ProviderSnapshotNotFoundError.isInstance(error), `${error.name}: ${error.message}`).toBe(true);
    });

    test('through core, checkout restores the checkpoint in the child while the source keeps its write', async (context) => {
      requireCapabilities(context, 'snapshot', 'checkout');
      const { service, runtimeId } = await openRuntime();
      const checkpoint = await service.checkpoint({ runtime_id: runtimeId });
      await service.writeFile({ runtime_id: runtimeId, path: 'state.txt', content_base64: base64('after') });
      const child = await service.checkout({ checkpoint_id: checkpoint.checkpoint_id });
      expect(await readText(service, child.runtime.runtime_id, 'state.txt')).toBe('checkpointed');
      expect(await readText(service, runtimeId, 'state.txt')).toBe('after');
    });

    test('through core, checkout of a checkpoint whose snapshot was deleted fails with checkpoint_snapshot_deleted', async (context) => {
      requireCapabilities(context, 'snapshot', 'checkout', 'delete_snapshot');
      const { service, runtimeId } = await openRuntime();
      const checkpoint = await service.checkpoint({ runtime_id: runtimeId });
      const deleted = await service.deleteCheckpointSnapshot({ checkpoint_id: checkpoint.checkpoint_id });
      expect(deleted.deleted_provider_snapshot).toBe(true);
      const checkoutCalls = harness.calls.checkout;
      await expectRuntimectlError(service.checkout({ checkpoint_id: checkpoint.checkpoint_id }), 'checkpoint_snapshot_deleted');
      expect(harness.calls.checkout).toBe(checkoutCalls);
    });

    test('through core, pause releases the backend and resume restores the files under the same id', async (context) => {
      requireCapabilities(context, 'pause');
      const { service, runtimeId } = await openRuntime();
      const releases = harness.calls.release;
      const paused = await service.pause({ runtime_id: runtimeId });
      expect(paused.runtime.status).toBe('paused');
      expect(harness.calls.release).toBe(releases + 1);
      await service.resume({ runtime_id: runtimeId });
      expect(await readText(service, runtimeId, 'state.txt')).toBe('checkpointed');
    });

    test('the listed capabilities say checkpoint works and whether it keeps a restorable snapshot', async () => {
      const { service, runtimeId } = await openRuntime();
      const listed = (await service.providers()).providers.find((entry) => entry.provider === harness.provider.providerId);
      const checkpoint = await service.checkpoint({ runtime_id: runtimeId });
      const { has_provider_snapshot } = await service.getCheckpoint(checkpoint.checkpoint_id);
      expect(listed?.capabilities).toMatchObject({ checkpoint: true, snapshot: has_provider_snapshot });
    });

    test('without checkout, core refuses checkout with unsupported_backend before creating or releasing anything', async (context) => {
      requireAbsent(context, 'checkout');
      const { service, runtimeId } = await openRuntime();
      const checkpoint = await service.checkpoint({ runtime_id: runtimeId });
      const before = { ...harness.calls };
      const liveBefore = service.liveBackendIds();
      const runtimesBefore = (await service.list()).runtimes.length;
      const error = await expectRuntimectlError(service.checkout({ checkpoint_id: checkpoint.checkpoint_id }), 'unsupported_backend');
      expect(UnsupportedBackendError.isInstance(error)).toBe(true);
      expect(harness.calls).toEqual(before);
      expect(service.liveBackendIds()).toEqual(liveBefore);
      expect((await service.list()).runtimes.length).toBe(runtimesBefore);
      expect(await readText(service, runtimeId, 'state.txt')).toBe('checkpointed');
    });

    test('without pause support, core refuses pause with unsupported_backend and the runtime stays idle and bound', async (context) => {
      requireAbsent(context, 'pause');
      const { service, runtimeId } = await openRuntime();
      const before = { ...harness.calls };
      const checkpointsBefore = (await service.listCheckpoints(runtimeId)).checkpoints.length;
      const error = await expectRuntimectlError(service.pause({ runtime_id: runtimeId }), 'unsupported_backend');
      expect(UnsupportedBackendError.isInstance(error)).toBe(true);
      expect(harness.calls).toEqual(before);
      expect((await service.get(runtimeId)).runtime.status).toBe('idle');
      expect((await service.listCheckpoints(runtimeId)).checkpoints.length).toBe(checkpointsBefore);
      expect(await readText(service, runtimeId, 'state.txt')).toBe('checkpointed');
    });

    test('without provider snapshots, checkpoint still works and records no provider snapshot', async (context) => {
      requireAbsent(context, 'snapshot');
      const { service, runtimeId } = await openRuntime();
      const checkpoint = await service.checkpoint({ runtime_id: runtimeId, name: 'local point' });
      const view = await service.getCheckpoint(checkpoint.checkpoint_id);
      expect(view).toMatchObject({ runtime_id: runtimeId, name: 'local point', has_provider_snapshot: false });
      const deleted = await service.deleteCheckpointSnapshot({ checkpoint_id: checkpoint.checkpoint_id });
      expect(deleted).toMatchObject({ provider_snapshot_id: null, deleted_provider_snapshot: false });
    });
  });
}
