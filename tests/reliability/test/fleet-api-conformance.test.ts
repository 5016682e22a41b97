import { runApiConformance } from '@runtimectl/testkit';
import { afterAll, expect } from 'vitest';
import { startFleetRig } from '../support/fleet-rig';
import { writeFigures } from '../support/figures';
import { startRandomBalancer } from '../support/random-balancer';
import { seededRandom } from '../support/mixed-workload';

// Issue 20's first proof: the whole black-box HTTP suite against a fleet of 3 nodes on one
// PostgreSQL, every request sent to a node chosen at random by a load balancer. E2B (the
// emulator) is the snapshot provider, so every node can serve every such runtime; the local
// provider (node-local: its runtimes live on the node that opened them) covers the unsupported
// paths, so they also prove forwarding to a runtime's home node.
const TOKEN = 'fleet-api-conformance-token-0123456789';
const SEED = Number(process.env.FLEET_SEED ?? 20261202);
const rig = await startFleetRig({ nodes: 3, token: TOKEN });
const balancer = await startRandomBalancer(() => rig.nodes.map((node) => node.url), seededRandom(SEED));
console.log(`fleet conformance: seed ${SEED}, balancer ${balancer.url}, nodes ${rig.nodes.map((node) => node.url).join(' ')}`);

// Runs after the suite's own afterAll, which closed every runtime it opened (cascade, snapshots deleted).
afterAll(async () => {
  try {
    const state = await rig.admin.state();
    writeFigures('fleet-api-conformance', { seed: SEED, nodes: rig.nodes.length, balancer: balancer.counts, leftSandboxes: state.sandboxes.length, leftSnapshots: state.snapshots.length });
    // Named after their runtime (sandbox metadata) and snapshot names, so a leak says whose it is.
    expect(state.sandboxes.map((sandbox) => `${sandbox.sandboxId} (${sandbox.metadata.runtimectl_runtime_id})`), 'sandboxes left at E2B').toEqual([]);
    expect(state.snapshots.map((snapshot) => `${snapshot.snapshotId} (${snapshot.names.join(', ')})`), 'snapshots left at E2B').toEqual([]);
    for (const node of rig.nodes) expect(node.process?.logs.foundCount(), `secrets in ${node.nodeId}'s log`).toBe(0);
  } finally {
    await balancer.close();
    const codes = await rig.stop();
    expect(codes, 'every node was up and shut down cleanly').toEqual(rig.nodes.map(() => 0));
  }
}, 120_000);

runApiConformance({
  name: `a fleet of 3 runtimed nodes on one PostgreSQL behind a random load balancer (seed ${SEED})`,
  baseUrl: balancer.url,
  token: TOKEN,
  snapshotProvider: 'e2b',
  unsupportedProvider: 'local',
  // A checkout child's sandbox is an E2B create from the snapshot: fail the next one.
  failNextCheckout: () => rig.admin.failNext('create', { status: 500, message: 'injected create failure' }),
  timeouts: { testMs: 60_000, hookMs: 120_000 },
});
