import { describe, expect } from 'vitest';
import type { NodeRecord } from '@runtimectl/core';
import { eventually, granted, lapsed, leaseRequest, LONG_TTL_MS, RENEWED_TTL_MS } from './lease-fixtures';
import { resolveStoreConformanceOptions, type StoreConformanceOptions } from './store-conformance-options';
import { storeTest, useStoreHarness } from './store-harness';

const node = (nodeId: string, overrides: Partial<Omit<NodeRecord, 'heartbeatAtMs'>> = {}): Omit<NodeRecord, 'heartbeatAtMs'> => ({
  nodeId,
  advertiseUrl: `http://${nodeId}.internal:7070`,
  version: '1.2.3',
  startedAtMs: 1_764_000_000_000,
  ...overrides,
});

/**
 * What a fleet shares besides runtimes (NodeStore): one installation id whoever claims first,
 * the node registry with heartbeats on the store's clock, and a heartbeat renewing the node's
 * leases in the same step.
 */
export function nodeRegistryTests(options: StoreConformanceOptions): void {
  const resolved = resolveStoreConformanceOptions(options);
  const test = storeTest(resolved);

  describe('node registry and installation id', () => {
    const harness = useStoreHarness(resolved);

    test('the first claimed installation id wins; later claims get it back, also after a restart', async () => {
      expect(await harness.store.claimInstallationId('inst-first')).toBe('inst-first');
      expect(await harness.store.claimInstallationId('inst-second')).toBe('inst-first');
      const reopened = await harness.restart();
      expect(await reopened.claimInstallationId('inst-third')).toBe('inst-first');
    });

    test('nodes claiming the installation id at once all get the same one', async () => {
      const nodes = await harness.nodes(6);
      const claimed = await Promise.all(nodes.map((store, index) => store.claimInstallationId(`inst-${index}`)));
      expect(new Set(claimed).size).toBe(1);
      expect(claimed[0]).toMatch(/^inst-\d$/);
    });

    test('storeTimeMs is the store clock in ms since the epoch and does not go back', async () => {
      const first = await harness.store.storeTimeMs();
      const second = await harness.store.storeTimeMs();
      expect(Number.isSafeInteger(first)).toBe(true);
      expect(second).toBeGreaterThanOrEqual(first);
      // The test machine runs the store: its clock and ours agree to well within a minute.
      expect(Math.abs(first - Date.now())).toBeLessThan(60_000);
    });

    test('a registered node is listed with its heartbeat at registration on the store clock; nodes come ordered by id', async () => {
      const before = await harness.store.storeTimeMs();
      await harness.store.registerNode(node('node-b', { advertiseUrl: null }));
      await harness.store.registerNode(node('node-a'));
      const after = await harness.store.storeTimeMs();
      const nodes = await harness.store.listNodes();
      expect(nodes.map(({ heartbeatAtMs: _, ...rest }) => rest)).toStrictEqual([node('node-a'), node('node-b', { advertiseUrl: null })]);
      for (const listed of nodes) {
        expect(listed.heartbeatAtMs).toBeGreaterThanOrEqual(before);
        expect(listed.heartbeatAtMs).toBeLessThanOrEqual(after);
      }
    });

    test('registering a node id again (a restart) replaces its record instead of adding one', async () => {
      await harness.store.registerNode(node('node-a'));
      const restarted = node('node-a', { advertiseUrl: 'http://10.0.0.9:7070', version: '1.3.0', startedAtMs: 1_764_000_100_000 });
      await harness.store.registerNode(restarted);
      const nodes = await harness.store.listNodes();
      expect(nodes).toHaveLength(1);
      expect(nodes[0]).toMatchObject(restarted);
    });

    test('a heartbeat moves the node heartbeat forward on the store clock, and nodes survive a restart', async () => {
      await harness.store.registerNode(node('node-a'));
      await harness.store.registerNode(node('node-b'));
      const registered = Math.max(...(await harness.store.listNodes()).map((listed) => listed.heartbeatAtMs));
      await eventually('the store clock moves past the registrations', async () => (await harness.store.storeTimeMs()) > registered);
      await harness.store.heartbeatNode('node-a', 60_000);
      const after = await harness.store.storeTimeMs();
      const reopened = await harness.restart();
      const [beaten, untouched] = await reopened.listNodes();
      expect(beaten!.heartbeatAtMs).toBeGreaterThan(registered);
      expect(beaten!.heartbeatAtMs).toBeLessThanOrEqual(after);
      expect(untouched!.heartbeatAtMs).toBeLessThan(beaten!.heartbeatAtMs);
    });

    test('registering a node id again (a restart) ends the leases it held before: its heartbeats cannot keep its previous life holding runtimes', async () => {
      const [nodeA, nodeB] = await harness.nodes(2);
      await nodeA!.registerNode(node('node-a'));
      await granted(nodeA!, leaseRequest('rt-a', 'exclusive', { ttlMs: LONG_TTL_MS }));
      await granted(nodeA!, leaseRequest('rt-a2', 'shared', { ttlMs: LONG_TTL_MS }));
      await granted(nodeB!, leaseRequest('rt-b', 'shared', { holderId: 'node-b', ttlMs: LONG_TTL_MS }));
      // node-a restarts: its operations died with the process, so nothing of it may stay busy.
      await nodeB!.registerNode(node('node-a', { startedAtMs: 1_764_000_100_000 }));
      await nodeB!.heartbeatNode('node-a', LONG_TTL_MS);
      expect(await nodeA!.listBusyRuntimeIds()).toStrictEqual(['rt-b']);
      await granted(nodeB!, leaseRequest('rt-a', 'exclusive', { holderId: 'node-b' }));
    });

    test("a heartbeat renews the node's leases past their first expiry, and no other node's", async () => {
      const [nodeA, nodeB] = await harness.nodes(2);
      await nodeA!.registerNode(node('node-a'));
      await granted(nodeA!, leaseRequest('rt-a', 'exclusive', { ttlMs: RENEWED_TTL_MS }));
      await granted(nodeB!, leaseRequest('rt-b', 'shared', { holderId: 'node-b', ttlMs: RENEWED_TTL_MS }));
      await nodeA!.heartbeatNode('node-a', 60_000);
      // Granted after both and lives longer: once it lapsed, the first two would have too.
      await granted(nodeB!, leaseRequest('rt-marker', 'shared', { holderId: 'node-c', ttlMs: 2 * RENEWED_TTL_MS }));
      await lapsed(nodeB!, 'rt-marker');
      expect(await nodeB!.listBusyRuntimeIds()).toStrictEqual(['rt-a']);
    });
  });
}
