import { describe, expect, it } from 'vitest';
import { RuntimeService, type BackendProviderV1, type BackendResource } from '@runtimectl/core';
import { asFleetProvider, createFleet, LEASE_MS, openOn } from './fleet-harness';

/** Long enough that no heartbeat runs a pass of its own between a test's explicit passes. */
const QUIET_LEASE_MS = 600_000;

type Fleet = ReturnType<typeof createFleet>;

/**
 * One node's view of the shared fleet-wide memory provider, with a `keepAlive` that records the
 * sets it is told (keep-alive state is per process, so each node has its own).
 */
function keepAliveRecorder(fleet: Fleet) {
  const sets: string[][] = [];
  const base = asFleetProvider(fleet.provider);
  const provider = new Proxy(base, {
    get(target, key) {
      if (key === 'keepAlive') return (resources: readonly BackendResource[]) => sets.push(resources.map((resource) => String(resource.id)).sort());
      return Reflect.get(target, key, target) as unknown;
    },
  }) as BackendProviderV1;
  return { provider, last: () => sets.at(-1), calls: () => sets.length };
}

function nodeWithKeepAlive(fleet: Fleet, nodeId: string, leaseMs = QUIET_LEASE_MS) {
  const recorder = keepAliveRecorder(fleet);
  const service = new RuntimeService({ store: fleet.store, providers: [recorder.provider], defaultProvider: 'memory', node: { nodeId, leaseMs } });
  return { service, ...recorder };
}

/** The provider resource id (memory provider: `resource.id`) of a runtime's backend. */
async function resourceIdOf(fleet: Fleet, runtimeId: string): Promise<string> {
  return String((await fleet.store.getSession(runtimeId))!.backend!.resource.id);
}

/** Two nodes on one store; `a` started first, so it holds the maintenance lease. */
async function twoNodes() {
  const fleet = createFleet();
  const a = nodeWithKeepAlive(fleet, 'node-a');
  const b = nodeWithKeepAlive(fleet, 'node-b');
  await a.service.reconcile();
  await b.service.reconcile();
  return { fleet, a, b };
}

async function passes(service: RuntimeService, count: number): Promise<void> {
  for (let pass = 0; pass < count; pass += 1) await service.keepAlive();
}

describe('keep-alive duty across a fleet', () => {
  it('the maintenance lease holder keeps alive every live runtime of the store, whichever node opened it', async () => {
    const { fleet, a, b } = await twoNodes();
    const onA = await openOn(a.service);
    const onB = await openOn(b.service);
    await a.service.keepAlive();
    expect(a.last()).toEqual([await resourceIdOf(fleet, onA), await resourceIdOf(fleet, onB)].sort());
    expect(a.service.keptAliveBackends()).toBe(2);
    await a.service.stop();
    await b.service.stop();
  });

  it('paused and closed runtimes drop out of the holder\'s set', async () => {
    const fleet = createFleet();
    const a = nodeWithKeepAlive(fleet, 'node-a');
    await a.service.reconcile();
    const [kept, paused, closed] = [await openOn(a.service), await openOn(a.service), await openOn(a.service)];
    const keptId = await resourceIdOf(fleet, kept);
    await a.service.pause({ runtime_id: paused });
    await a.service.close({ runtime_id: closed });
    await a.service.keepAlive();
    expect(a.last()).toEqual([keptId]);
    await a.service.stop();
  });

  it('a node that does not hold the lease keeps alive only what it made, and none of it once the hand-over is over', async () => {
    const { fleet, a, b } = await twoNodes();
    const onA = await openOn(a.service);
    const onB = await openOn(b.service);
    // b serves a's runtime too (it attaches its backend): that is no duty of b's beyond the hand-over.
    await b.service.stat({ runtime_id: onA, path: '.' });
    await b.service.keepAlive();
    expect(b.last()).toEqual([await resourceIdOf(fleet, onA), await resourceIdOf(fleet, onB)].sort());
    await b.service.keepAlive();
    expect(b.last(), 'the second pass that finds them bound in the store hands them over').toEqual([]);
    expect(b.service.keptAliveBackends()).toBe(0);
    await a.service.stop();
    await b.service.stop();
  });

  it('a backend made on a non-holder whose binding is not committed yet is kept alive by that node', async () => {
    const { fleet, a, b } = await twoNodes();
    const commit = fleet.store.commit.bind(fleet.store);
    let held: (() => void) | undefined;
    fleet.store.commit = async (batch) => {
      if ((batch.sessions?.length ?? 0) === 0) return commit(batch);
      await new Promise<void>((resolve) => (held = resolve));
      return commit(batch);
    };
    const opening = openOn(b.service);
    while (!held) await new Promise((resolve) => setTimeout(resolve, 5));
    await passes(b.service, 3);
    await a.service.keepAlive();
    expect(b.last(), 'not in the store: the node that made it keeps it').toEqual(fleet.provider.liveBackendIds());
    expect(a.last()).toEqual([]);
    fleet.store.commit = commit;
    held();
    const runtimeId = await opening;
    await a.service.keepAlive();
    await b.service.keepAlive();
    expect(b.last(), 'bound now, seen once: still kept').toEqual([await resourceIdOf(fleet, runtimeId)]);
    expect(a.last()).toEqual([await resourceIdOf(fleet, runtimeId)]);
    await b.service.keepAlive();
    expect(b.last()).toEqual([]);
    await a.service.stop();
    await b.service.stop();
  });

  it('duty moves when the holder stops: the next node to take the lease keeps every live runtime alive', async () => {
    const { fleet, a, b } = await twoNodes();
    const runtimeId = await openOn(a.service);
    await passes(b.service, 2);
    expect(b.last()).toEqual([]);
    await a.service.stop(); // gives the maintenance lease up
    await b.service.keepAlive();
    expect(b.last()).toEqual([await resourceIdOf(fleet, runtimeId)]);
    await b.service.stop();
  });

  it('a stopped node takes the lease no more: a heartbeat still in flight at stop leaves the duty to the others', async () => {
    const { fleet, a, b } = await twoNodes();
    const runtimeId = await openOn(b.service);
    await passes(b.service, 2);
    expect(b.last(), 'handed over to a').toEqual([]);
    await a.service.stop();
    await a.service.keepAlive(); // what a beat that began before stop() would still do
    await b.service.keepAlive();
    expect(b.last()).toEqual([await resourceIdOf(fleet, runtimeId)]);
    await b.service.stop();
  });

  it('duty moves when the holder dies, once its lease has lapsed', async () => {
    const { fleet, a, b } = await twoNodes();
    const runtimeId = await openOn(a.service);
    await a.service.keepAlive();
    // a "dies": it no longer heartbeats nor passes, and keeps its lease until it lapses.
    await b.service.keepAlive();
    expect(b.last()).toEqual([]);
    fleet.store.skewMs += QUIET_LEASE_MS + 1;
    await b.service.keepAlive();
    expect(b.last()).toEqual([await resourceIdOf(fleet, runtimeId)]);
    await b.service.stop();
  });

  it('taking the lease over on a heartbeat still makes the next maintenance sweep (it reads as acquired)', async () => {
    const { a, b } = await twoNodes();
    await a.service.stop();
    await b.service.keepAlive(); // b takes the lease in its keep-alive pass
    expect(await b.service.maintain(), 'maintain sweeps after a take-over').not.toBeNull();
    expect(await b.service.maintain()).toBeNull();
    await b.service.stop();
  });

  it('a heartbeat runs the pass on its own', async () => {
    const fleet = createFleet();
    const a = nodeWithKeepAlive(fleet, 'node-a', LEASE_MS);
    await a.service.reconcile();
    const runtimeId = await openOn(a.service);
    const before = a.calls();
    for (let waited = 0; a.calls() === before && waited < 10_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(a.calls()).toBeGreaterThan(before);
    expect(a.last()).toEqual([await resourceIdOf(fleet, runtimeId)]);
    await a.service.stop();
  });
});
