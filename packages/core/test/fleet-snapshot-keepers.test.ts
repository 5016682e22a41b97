import { describe, expect, it } from 'vitest';
import { ProviderError, type BackendCheckoutRequest, type ProviderBackend } from '@runtimectl/core';
import { delegatingProvider } from '@runtimectl/testkit';
import { asFleetProvider, createFleet, openOn, writeOn } from './fleet-harness';
import { createGate, rejectionOf } from './harness';

/**
 * Two nodes on one store and one fleet-wide provider whose checkouts wait at `gate` once armed:
 * a checkout running on one node while another node gives up the snapshot's last keeper.
 */
function gatedFleet() {
  const fleet = createFleet();
  const gate = createGate();
  let armed = false;
  let failing = false;
  const provider = asFleetProvider(
    delegatingProvider(fleet.provider, {
      checkout: async (request: BackendCheckoutRequest): Promise<ProviderBackend> => {
        if (armed) {
          gate.enter();
          await gate.opened;
        }
        if (failing) throw new ProviderError('memory', 'checkout', 'the provider refused the checkout');
        return fleet.provider.checkout!(request);
      },
    }),
  );
  const [a, b] = [fleet.node('node-a', [provider]), fleet.node('node-b', [provider])];
  return { ...fleet, a, b, gate, arm: () => (armed = true), failCheckouts: () => (failing = true) };
}

/**
 * The snapshot S of checkpoint C of a closed runtime, kept only by `keeper` (a runtime whose
 * backend was created from S).
 */
async function snapshotKeptByOneRuntime(fleet: ReturnType<typeof gatedFleet>) {
  const source = await openOn(fleet.a);
  await writeOn(fleet.a, source, 'a.txt', 'v1');
  const checkpointId = (await fleet.a.checkpoint({ runtime_id: source })).checkpoint_id;
  const keeper = (await fleet.a.checkout({ checkpoint_id: checkpointId })).runtime.runtime_id;
  await fleet.a.close({ runtime_id: source });
  expect(fleet.provider.snapshotIds()).toHaveLength(1);
  return { checkpointId, keeper };
}

describe('snapshot keepers across nodes', () => {
  it('a checkout in flight on one node keeps its snapshot when another node closes the last runtime keeping it', async () => {
    const fleet = gatedFleet();
    const { checkpointId, keeper } = await snapshotKeptByOneRuntime(fleet);
    fleet.arm();
    const checkout = fleet.a.checkout({ checkpoint_id: checkpointId });
    await fleet.gate.started;
    await fleet.b.close({ runtime_id: keeper });
    expect(fleet.provider.snapshotIds()).toHaveLength(1);
    fleet.gate.release();
    const child = (await checkout).runtime.runtime_id;
    const { content_base64 } = await fleet.b.readFile({ runtime_id: child, path: 'a.txt' });
    expect(Buffer.from(content_base64, 'base64').toString()).toBe('v1');
    await fleet.b.close({ runtime_id: child });
    expect(fleet.provider.snapshotIds()).toEqual([]);
  });

  it('a checkout in flight on one node keeps its snapshot when another node pauses the last runtime keeping it', async () => {
    const fleet = gatedFleet();
    const { checkpointId, keeper } = await snapshotKeptByOneRuntime(fleet);
    fleet.arm();
    const checkout = fleet.a.checkout({ checkpoint_id: checkpointId });
    await fleet.gate.started;
    await writeOn(fleet.b, keeper, 'b.txt', 'dirty'); // its pause makes a snapshot of its own
    await fleet.b.pause({ runtime_id: keeper });
    expect(fleet.provider.snapshotIds()).toHaveLength(2);
    fleet.gate.release();
    const child = (await checkout).runtime.runtime_id;
    const { content_base64 } = await fleet.b.readFile({ runtime_id: child, path: 'a.txt' });
    expect(Buffer.from(content_base64, 'base64').toString()).toBe('v1');
  });

  it('a checkout that failed gives up its snapshot when the last runtime keeping it closed meanwhile on another node', async () => {
    const fleet = gatedFleet();
    const { checkpointId, keeper } = await snapshotKeptByOneRuntime(fleet);
    fleet.arm();
    fleet.failCheckouts();
    const checkout = rejectionOf(fleet.a.checkout({ checkpoint_id: checkpointId }));
    await fleet.gate.started;
    await fleet.b.close({ runtime_id: keeper });
    expect(fleet.provider.snapshotIds()).toHaveLength(1);
    fleet.gate.release();
    expect(await checkout).toMatchObject({ code: 'provider_error' });
    expect(fleet.provider.snapshotIds()).toEqual([]);
  });
});
