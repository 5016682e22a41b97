import { expect } from 'vitest';
import { ProviderSnapshotNotFoundError } from '@runtimectl/core';
import { conformanceArea } from './conformance-area';
import type { ProviderConformanceOptions } from './conformance-options';
import { expectRuntimectlError, text, utf8 } from './expect-helpers';

/**
 * `readSnapshotFile` (optional: these tests skip without it): a snapshot's file reads as it was
 * checkpointed, not as written since, without a checkout; a path the snapshot does not hold is
 * `path_not_found`; a deleted snapshot throws `ProviderSnapshotNotFoundError`.
 */
export function snapshotFileTests(options: ProviderConformanceOptions): void {
  conformanceArea(options, 'snapshot files', ({ harness, test }) => {
    test('reads a file as the snapshot holds it, not later writes, without a checkout; a missing path is path_not_found', async (context) => {
      const provider = harness.provider;
      context.skip(!provider.readSnapshotFile || !provider.checkpoint, `provider ${provider.providerId} has no readSnapshotFile, so this does not apply`);
      const { backend, request } = await harness.createBackend();
      await backend.writeBytes('snap/state.txt', utf8('checkpointed'));
      const snapshot = await provider.checkpoint!(backend, { labels: harness.snapshotLabels(request) });
      await backend.writeBytes('snap/state.txt', utf8('written after'));
      const checkouts = harness.calls.checkout;
      expect(text(await provider.readSnapshotFile!(snapshot.snapshotId, 'snap/state.txt'))).toBe('checkpointed');
      expect(harness.calls.checkout).toBe(checkouts);
      await expectRuntimectlError(provider.readSnapshotFile!(snapshot.snapshotId, 'snap/missing.txt'), 'path_not_found');
      await expectRuntimectlError(provider.readSnapshotFile!(snapshot.snapshotId, 'snap'), 'invalid_request');
      if (provider.deleteSnapshot) {
        await provider.deleteSnapshot(snapshot.snapshotId);
        const error = await expectRuntimectlError(provider.readSnapshotFile!(snapshot.snapshotId, 'snap/state.txt'), 'provider_error');
        expect(ProviderSnapshotNotFoundError.isInstance(error)).toBe(true);
      }
    });
  });
}
