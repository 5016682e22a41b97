import { expect, type TestContext } from 'vitest';
import { providerCapabilities } from '@runtimectl/core';
import { conformanceArea } from './conformance-area';
import type { ProviderConformanceOptions } from './conformance-options';
import { CONFORMANCE_INSTALLATION } from './provider-harness';

/**
 * `listOwnedResources`, which crash reconciliation uses to find what no record accounts for:
 * it lists exactly the live backends and snapshots labelled with the installation. Skipped,
 * saying so, for providers without the method (reconciliation then only sees recorded resources).
 */
export function ownershipTests(options: ProviderConformanceOptions): void {
  conformanceArea(options, 'ownership', ({ harness, test }) => {
    const requireListing = (context: TestContext) =>
      context.skip(
        typeof harness.provider.listOwnedResources !== 'function',
        `provider ${harness.provider.providerId} has no listOwnedResources method, so this does not apply`,
      );
    const owned = (installationId = CONFORMANCE_INSTALLATION) => harness.provider.listOwnedResources!(installationId);

    test('listOwnedResources lists a backend labelled with the installation until it is released', async (context) => {
      requireListing(context);
      const { request } = await harness.createBackend();
      expect((await owned()).backends).toContainEqual({ backendId: request.backendId, resource: request.resource });
      await harness.provider.release(request);
      expect((await owned()).backends.map((backend) => backend.backendId)).not.toContain(request.backendId);
    });

    test('listOwnedResources of another installation does not list this one’s backends', async (context) => {
      requireListing(context);
      const { request } = await harness.createBackend();
      const other = await owned('another-installation');
      expect(other.backends.map((backend) => backend.backendId)).not.toContain(request.backendId);
    });

    test('listOwnedResources lists a snapshot labelled with the installation until it is deleted', async (context) => {
      requireListing(context);
      const capabilities = providerCapabilities(harness.provider);
      context.skip(!capabilities.snapshot || !capabilities.delete_snapshot, 'needs checkpoint and deleteSnapshot methods');
      const { backend, request } = await harness.createBackend();
      const snapshot = await harness.provider.checkpoint!(backend, { labels: harness.snapshotLabels(request) });
      expect((await owned()).snapshots).toContainEqual({ snapshotId: snapshot.snapshotId });
      await harness.provider.deleteSnapshot!(snapshot.snapshotId);
      expect((await owned()).snapshots.map((owned) => owned.snapshotId)).not.toContain(snapshot.snapshotId);
    });
  });
}
