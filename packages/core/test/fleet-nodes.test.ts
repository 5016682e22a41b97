import { describe, expect, it } from 'vitest';
import { RuntimeService } from '@runtimectl/core';
import { createMemoryProvider } from '@runtimectl/testkit';
import { asFleetProvider, createFleet, FleetStore, LEASE_MS, openOn } from './fleet-harness';
import { rejectionOf } from './harness';

describe('fleet membership', () => {
  it('start registers the node; nodes() lists every node, alive while its heartbeat is younger than its lease, with the runtimes it is home of', async () => {
    const store = new FleetStore();
    const local = createMemoryProvider();
    const service = (nodeId: string) =>
      new RuntimeService({ store, providers: [local], defaultProvider: 'memory', node: { nodeId, leaseMs: LEASE_MS, advertiseUrl: `http://${nodeId}`, version: '9.9.9' } });
    const [a, b] = [service('node-a'), service('node-b')];
    await a.start();
    await b.start();
    await openOn(a);
    await openOn(a);
    await b.stop();
    expect(await a.nodes()).toEqual([
      expect.objectContaining({ nodeId: 'node-a', advertiseUrl: 'http://node-a', version: '9.9.9', alive: true, runtimes: 2 }),
      expect.objectContaining({ nodeId: 'node-b', alive: true, runtimes: 0 }),
    ]);
    store.skewMs += LEASE_MS + 1;
    expect((await a.nodes()).map((node) => [node.nodeId, node.alive])).toEqual([
      ['node-a', false],
      ['node-b', false],
    ]);
    await a.stop();
  });

  it('nodeStates() lists every node and whether it is alive without reading a single runtime (it is asked on the request path)', async () => {
    const store = new FleetStore();
    const a = new RuntimeService({ store, providers: [createMemoryProvider()], defaultProvider: 'memory', node: { nodeId: 'node-a', leaseMs: LEASE_MS } });
    await a.start();
    await openOn(a);
    let listings = 0;
    const listSessions = store.listSessions.bind(store);
    store.listSessions = async (query) => {
      listings += 1;
      return listSessions(query);
    };
    expect((await a.nodeStates()).map((node) => [node.nodeId, node.alive])).toEqual([['node-a', true]]);
    expect(listings).toBe(0);
    await a.stop();
  });

  it('start claims the fleet’s installation id: every node labels provider resources with the first one’s', async () => {
    const { store, provider } = createFleet();
    const make = (nodeId: string, installationId: string) =>
      new RuntimeService({ store, providers: [asFleetProvider(provider)], defaultProvider: 'memory', installationId, node: { nodeId, leaseMs: LEASE_MS } });
    const a = make('node-a', 'inst-a');
    const b = make('node-b', 'inst-b');
    await a.start();
    await b.start();
    await openOn(b);
    expect((await provider.listOwnedResources('inst-a')).backends).toHaveLength(1);
    await a.stop();
    await b.stop();
  });

  it('the heartbeat renews the node’s leases, so an operation outliving the lease time keeps its runtime', async () => {
    const { node, gate } = createFleet();
    const a = node('node-a');
    const b = node('node-b');
    await a.start();
    const id = await openOn(a);
    const running = a.exec({ runtime_id: id, command: 'block' });
    await gate.started;
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS * 2));
    expect(await rejectionOf(b.checkpoint({ runtime_id: id }))).toMatchObject({ code: 'session_busy' });
    gate.release();
    await running;
    await a.stop();
  });
});

describe('home node', () => {
  it('a runtime on a node-local provider is served only by its home node: another answers runtime_on_other_node naming it', async () => {
    const store = new FleetStore();
    const local = createMemoryProvider();
    const service = (nodeId: string) =>
      new RuntimeService({ store, providers: [local], defaultProvider: 'memory', node: { nodeId, leaseMs: LEASE_MS, advertiseUrl: `http://${nodeId}` } });
    const [a, b] = [service('node-a'), service('node-b')];
    await a.start();
    const id = await openOn(a);
    expect((await store.getSession(id))?.homeNodeId).toBe('node-a');
    const refused = await rejectionOf(b.exec({ runtime_id: id, command: 'true' }));
    expect(refused).toMatchObject({
      code: 'runtime_on_other_node',
      details: { runtime_id: id, node_id: 'node-a', node_url: 'http://node-a', node_alive: true },
    });
    expect(await rejectionOf(b.checkpoint({ runtime_id: id }))).toMatchObject({ code: 'runtime_on_other_node' });
    const { checkpoint_id } = await a.checkpoint({ runtime_id: id });
    expect(await rejectionOf(b.checkout({ checkpoint_id }))).toMatchObject({ code: 'runtime_on_other_node' });
    expect(await rejectionOf(b.close({ runtime_id: id }))).toMatchObject({ code: 'runtime_on_other_node' });
    const child = (await a.checkout({ checkpoint_id })).runtime.runtime_id;
    expect((await store.getSession(child))?.homeNodeId).toBe('node-a');
    expect((await b.get(id)).runtime.runtime_id).toBe(id);
    await a.stop();
  });

  it('runtimes on a fleet-wide provider have no home node and any node serves them', async () => {
    const { node, store } = createFleet();
    const id = await openOn(node('node-a'));
    expect((await store.getSession(id))?.homeNodeId).toBeNull();
    await node('node-b').exec({ runtime_id: id, command: 'true' });
  });
});
