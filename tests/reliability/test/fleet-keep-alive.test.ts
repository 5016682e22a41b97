import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFigures } from '../support/figures';
import { startFleetRig, type FleetRig } from '../support/fleet-rig';
import type { Api } from '../support/http';
import { eventually, runtimeDetail } from '../support/invariants';
import { openRuntime, readText, writeText } from '../support/runtime-steps';

// Issue 20, keep-alive: "Sandbox keep-alive is done for each live runtime by one live node, not
// by every node; when every node is gone, sandboxes expire after sandbox_timeout_ms as today."
// 3 nodes, every runtime touched through every node (so every node has attached every sandbox,
// as behind a random balancer). A keep-alive refresh is E2B's `setTimeout` (the emulator's
// `set_timeout` call), made every third of the sandbox timeout by whoever refreshes.
const LEASE_MS = 1500;
const SANDBOX_TIMEOUT_MS = 6000; // > 2 × lease: the rule of docs/config.md
const REFRESH_INTERVAL_MS = SANDBOX_TIMEOUT_MS / 3;
const RUNTIMES = 3;
const WINDOW_MS = 8000;

let rig: FleetRig;
const runtimeIds: string[] = [];
const sandboxOf = new Map<string, string>();
const figures: Record<string, unknown> = { leaseMs: LEASE_MS, sandboxTimeoutMs: SANDBOX_TIMEOUT_MS, windowMs: WINDOW_MS };

beforeAll(async () => {
  rig = await startFleetRig({
    nodes: 3,
    leaseMs: LEASE_MS,
    env: { RUNTIMECTL_PROVIDERS_LOCAL_ENABLED: 'false', RUNTIMECTL_PROVIDERS_FS_ENABLED: 'false', RUNTIMECTL_PROVIDERS_E2B_SANDBOX_TIMEOUT_MS: String(SANDBOX_TIMEOUT_MS) },
  });
}, 300_000);

afterAll(async () => {
  writeFigures('fleet-keep-alive', figures);
  if (rig) await rig.stop();
}, 120_000);

const upNodes = () => rig.nodes.filter((node) => node.process);

/** `runtimectl_keep_alive_backends` of one node (null when it does not answer or has no sample). */
async function keptAlive(api: Api): Promise<number | null> {
  const reply = await api.get('/metrics').catch(() => undefined);
  const match = reply?.text.match(/^runtimectl_keep_alive_backends (\d+)$/m);
  return match ? Number(match[1]) : null;
}

/** Each up node's keep-alive count, once exactly one of them keeps every runtime alive and the others none. */
async function settledDuty(): Promise<{ problems: string[]; holder: number; counts: Array<number | null> }> {
  const nodes = upNodes();
  const counts = await Promise.all(nodes.map((node) => keptAlive(node.api)));
  const holders = nodes.filter((_, at) => counts[at] === RUNTIMES);
  const idle = counts.filter((count) => count === 0).length;
  const settled = holders.length === 1 && idle === nodes.length - 1;
  return { problems: settled ? [] : [`keep-alive counts ${JSON.stringify(counts)}`], holder: holders[0]?.index ?? -1, counts };
}

async function liveSandboxIds(): Promise<Set<string>> {
  return new Set((await rig.admin.state()).sandboxes.map((sandbox) => sandbox.sandboxId));
}

/** set_timeout calls per sandbox of ours that started within [fromMs, toMs] (epoch ms). */
async function refreshesBetween(fromMs: number, toMs: number): Promise<Map<string, number>> {
  const counts = new Map([...sandboxOf.values()].map((sandboxId) => [sandboxId, 0]));
  for (const call of await rig.admin.callLog()) {
    if (call.operation !== 'set_timeout' || !call.sandboxId || !counts.has(call.sandboxId)) continue;
    if (call.startedAtMs >= fromMs && call.startedAtMs <= toMs) counts.set(call.sandboxId, counts.get(call.sandboxId)! + 1);
  }
  return counts;
}

describe('sandbox keep-alive in a fleet of 3', () => {
  it('one node keeps every live sandbox alive: per sandbox, at most the refreshes of ONE refresher', async () => {
    for (const node of rig.nodes.slice(0, RUNTIMES)) runtimeIds.push(await openRuntime(node.api));
    // Every runtime through every node: each node attaches each sandbox.
    for (const runtimeId of runtimeIds) {
      for (const node of rig.nodes) await writeText(node.api, runtimeId, `${node.nodeId}.txt`, node.nodeId);
    }
    const details = await Promise.all(runtimeIds.map((runtimeId) => runtimeDetail(rig.nodes[0]!.api, runtimeId)));
    const state = await rig.admin.state();
    for (const runtimeId of runtimeIds) {
      const sandbox = state.sandboxes.find((each) => each.metadata.runtimectl_runtime_id === runtimeId);
      expect(sandbox, `runtime ${runtimeId} has a sandbox`).toBeDefined();
      sandboxOf.set(runtimeId, sandbox!.sandboxId);
    }
    expect(details.map((detail) => detail.runtime.status)).toEqual(runtimeIds.map(() => 'idle'));

    // The hand-over is over within a few heartbeats: one node (the maintenance lease holder)
    // keeps the 3 sandboxes alive, the others none.
    const duty = await eventually(settledDuty, 20_000);
    expect.soft(duty.problems).toEqual([]);
    figures.dutyCounts = duty.counts;

    const from = performance.timeOrigin + performance.now();
    await delay(WINDOW_MS);
    const to = performance.timeOrigin + performance.now();
    const refreshes = await refreshesBetween(from, to);
    figures.refreshesPerSandbox = [...refreshes.values()];
    // One refresher's calls are at least REFRESH_INTERVAL_MS apart (load only makes its timer fire
    // later, never sooner), so a window holds at most floor(window / interval) + 1 of them.
    const oneRefresher = Math.floor(WINDOW_MS / REFRESH_INTERVAL_MS) + 1;
    // Two refreshers on time make 2 × floor(window / interval): more than one can.
    expect(oneRefresher).toBeLessThan(2 * Math.floor(WINDOW_MS / REFRESH_INTERVAL_MS));
    for (const [sandboxId, count] of refreshes) {
      expect(count, `refreshes of ${sandboxId} in ${WINDOW_MS} ms`).toBeLessThanOrEqual(oneRefresher);
      expect(count, `${sandboxId} is refreshed at all`).toBeGreaterThanOrEqual(1);
    }
    expect([...(await liveSandboxIds())].filter((id) => [...sandboxOf.values()].includes(id))).toHaveLength(RUNTIMES);
  }, 120_000);

  it('SIGKILL of the holder: another node takes the duty and every sandbox outlives several timeouts', async () => {
    const { holder } = await eventually(settledDuty, 20_000);
    expect(holder).toBeGreaterThanOrEqual(0);
    figures.killedHolder = rig.nodes[holder]!.nodeId;
    await rig.kill(holder);
    const watchUntil = Date.now() + 2 * SANDBOX_TIMEOUT_MS;
    const missing = new Set<string>();
    while (Date.now() < watchUntil) {
      const live = await liveSandboxIds();
      for (const sandboxId of sandboxOf.values()) if (!live.has(sandboxId)) missing.add(sandboxId);
      await delay(250);
    }
    expect([...missing], 'sandboxes that lapsed after the holder died').toEqual([]);
    const after = await eventually(settledDuty, 20_000);
    expect(after.problems).toEqual([]);
    expect(after.holder).not.toBe(holder);
    const survivor = upNodes()[0]!;
    for (const runtimeId of runtimeIds) expect(await readText(survivor.api, runtimeId, `${rig.nodes[0]!.nodeId}.txt`)).toBe(rig.nodes[0]!.nodeId);
  }, 120_000);

  it('when every node is gone the sandboxes expire at their timeout, as with one daemon', async () => {
    const killedAt = Date.now();
    for (const node of upNodes()) await rig.kill(node.index);
    // The last refresh was at most one interval before the kill: gone within the timeout, plus
    // the emulator's own expiry timer and polling.
    const bound = SANDBOX_TIMEOUT_MS + 2000;
    let live = await liveSandboxIds();
    while ([...sandboxOf.values()].some((id) => live.has(id)) && Date.now() - killedAt < bound) {
      await delay(200);
      live = await liveSandboxIds();
    }
    figures.expiredAfterMs = Date.now() - killedAt;
    expect([...sandboxOf.values()].filter((id) => live.has(id)), `sandboxes still live ${bound} ms after the last node died`).toEqual([]);
  }, 60_000);
});
