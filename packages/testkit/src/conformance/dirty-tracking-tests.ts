import { expect } from 'vitest';
import { providerCapabilities, type RuntimeService } from '@runtimectl/core';
import { conformanceArea } from './conformance-area';
import type { ProviderConformanceOptions } from './conformance-options';
import { base64, collect, expectRuntimectlError } from './expect-helpers';

type Operation = (service: RuntimeService, runtimeId: string) => Promise<unknown>;

const READ_ONLY: Array<[string, Operation]> = [
  ['stat', (service, runtime_id) => service.stat({ runtime_id, path: 'seed.txt' })],
  ['stat of a missing path', (service, runtime_id) => service.stat({ runtime_id, path: 'absent.txt' })],
  ['read_file', (service, runtime_id) => service.readFile({ runtime_id, path: 'seed.txt' })],
  ['search by glob', (service, runtime_id) => service.search({ runtime_id, glob: '**/*.txt' })],
  ['search by grep', (service, runtime_id) => service.search({ runtime_id, grep: { query: 'seed', mode: 'content' } })],
  ['export (stream read to the end)', async (service, runtime_id) => collect((await service.export({ runtime_id, path: 'seed.txt' })).content)],
];

const MUTATING: Array<[string, Operation]> = [
  ['write_file', (service, runtime_id) => service.writeFile({ runtime_id, path: 'new.txt', content_base64: base64('new') })],
  ['write_file with unchanged content', (service, runtime_id) => service.writeFile({ runtime_id, path: 'seed.txt', content_base64: base64('seed content') })],
  ['mkdir', (service, runtime_id) => service.mkdir({ runtime_id, path: 'fresh/dir' })],
  ['mkdir of an existing directory', (service, runtime_id) => service.mkdir({ runtime_id, path: 'seed-dir' })],
  ['exec', (service, runtime_id) => service.exec({ runtime_id, command: 'echo hello' })],
  ['exec with a non-zero exit', (service, runtime_id) => service.exec({ runtime_id, command: 'exit 3' })],
];

/**
 * Dirty tracking as core applies it over this provider: a `RuntimeService` (memory store) drives
 * the provider, and whether the next checkpoint reuses the previous one shows whether core saw the
 * runtime as dirty. Works for providers without snapshots too (core's tracker decides reuse).
 * Before any exec nothing of the runtime's commands can run, so these hold for every provider;
 * after an exec, reuse needs the provider to confirm, by its backends' `backgroundProcesses`
 * answering 0, that nothing runs — for a provider that cannot, one test proves no checkpoint
 * reuses any more. temp_path marks dirty as well, but `RuntimeService` exposes no temp operation
 * to drive it.
 */
export function dirtyTrackingTests(options: ProviderConformanceOptions): void {
  conformanceArea(options, 'dirty tracking through core', ({ harness, test }) => {

    /** A runtime with a seed file and directory, just checkpointed: clean, with a ref to reuse. */
    async function checkpointedRuntime(): Promise<{ service: RuntimeService; runtimeId: string }> {
      const service = harness.createService();
      const { runtime } = await service.open({ conversation_id: 'conformance', sender_id: 'dirty-tracking' });
      const runtimeId = runtime.runtime_id;
      await service.writeFile({ runtime_id: runtimeId, path: 'seed.txt', content_base64: base64('seed content') });
      await service.mkdir({ runtime_id: runtimeId, path: 'seed-dir' });
      const first = await service.checkpoint({ runtime_id: runtimeId });
      expect(first.reused_backend_snapshot).toBe(false);
      return { service, runtimeId };
    }

    test('the first checkpoint of a runtime is new, the next one of a clean runtime reuses it', async () => {
      const { service, runtimeId } = await checkpointedRuntime();
      const snapshotCalls = harness.calls.checkpoint;
      const second = await service.checkpoint({ runtime_id: runtimeId });
      expect(second.reused_backend_snapshot).toBe(true);
      expect(harness.calls.checkpoint).toBe(snapshotCalls);
    });

    test('a checkpoint records a provider snapshot exactly when the provider can make one', async () => {
      const { service, runtimeId } = await checkpointedRuntime();
      const { checkpoints } = await service.listCheckpoints(runtimeId);
      expect(checkpoints[0]?.has_provider_snapshot).toBe(providerCapabilities(harness.provider).snapshot);
    });

    for (const [name, operation] of READ_ONLY) {
      test(`${name} leaves the runtime clean: the next checkpoint reuses the snapshot`, async () => {
        const { service, runtimeId } = await checkpointedRuntime();
        const snapshotCalls = harness.calls.checkpoint;
        await operation(service, runtimeId);
        const next = await service.checkpoint({ runtime_id: runtimeId });
        expect(next.reused_backend_snapshot).toBe(true);
        expect(harness.calls.checkpoint).toBe(snapshotCalls);
      });
    }

    for (const [name, operation] of MUTATING) {
      test(`${name} marks the runtime dirty: the next checkpoint is new`, async () => {
        const { service, runtimeId } = await checkpointedRuntime();
        const snapshotCalls = harness.calls.checkpoint;
        await operation(service, runtimeId);
        const next = await service.checkpoint({ runtime_id: runtimeId });
        expect(next.reused_backend_snapshot).toBe(false);
        const expectedCalls = providerCapabilities(harness.provider).snapshot ? snapshotCalls + 1 : snapshotCalls;
        expect(harness.calls.checkpoint).toBe(expectedCalls);
      });
    }

    // The fleet records dirty in the store before a mutating operation reaches the provider (never
    // a window where a write landed and the store says clean), and a refusal cannot prove that no
    // other operation wrote meanwhile, on this node or another: a refused write costs one snapshot.
    test('a write refused with invalid_request leaves the runtime dirty: the next checkpoint takes a snapshot', async () => {
      const { service, runtimeId } = await checkpointedRuntime();
      await expectRuntimectlError(service.mkdir({ runtime_id: runtimeId, path: 'seed.txt' }), 'invalid_request');
      expect((await service.checkpoint({ runtime_id: runtimeId })).reused_backend_snapshot).toBe(false);
    });

    test('a new checkpoint after a write makes the runtime clean again', async () => {
      const { service, runtimeId } = await checkpointedRuntime();
      await service.writeFile({ runtime_id: runtimeId, path: 'seed.txt', content_base64: base64('changed') });
      expect((await service.checkpoint({ runtime_id: runtimeId })).reused_backend_snapshot).toBe(false);
      expect((await service.checkpoint({ runtime_id: runtimeId })).reused_backend_snapshot).toBe(true);
    });

    test('after an exec, a checkpoint reuses again exactly when the provider confirms nothing runs ("when it cannot confirm, it snapshots")', async () => {
      const { service, runtimeId } = await checkpointedRuntime();
      await service.exec({ runtime_id: runtimeId, command: 'echo done' });
      expect((await service.checkpoint({ runtime_id: runtimeId })).reused_backend_snapshot).toBe(false);
      const confirms = await harness.confirmsQuietBackends();
      for (let index = 0; index < 2; index += 1) {
        expect((await service.checkpoint({ runtime_id: runtimeId })).reused_backend_snapshot, `confirms nothing runs: ${confirms}`).toBe(confirms);
      }
    });
  });
}
