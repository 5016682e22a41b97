/** The call log: every control-plane call with its sandbox, start, end and status, also over the admin HTTP API. */
import { setTimeout as delay } from 'node:timers/promises';
import { Sandbox } from 'e2b';
import { afterEach, describe, expect, it } from 'vitest';
import { E2BEmulatorAdminClient } from '../src/index.js';
import { useEmulator } from './support/emulator-fixture.js';

const fixture = useEmulator();

afterEach(async () => {
  await fixture.emulator.setLatencies({ snapshot: 0 });
  for (const entry of (await fixture.emulator.state()).sandboxes) await Sandbox.kill(entry.sandboxId, fixture.sdk);
  for (const entry of (await fixture.emulator.state()).snapshots) await Sandbox.deleteSnapshot(entry.snapshotId, fixture.sdk);
  await fixture.emulator.reset();
});

describe('call log', () => {
  it('records create, snapshot and kill with the sandbox, its metadata, when each started and ended, and the status', async () => {
    await fixture.emulator.setLatency('snapshot', 300);
    const sandbox = await Sandbox.create({ ...fixture.sdk, metadata: { owner: 'r1' } });
    const snapshot = await sandbox.createSnapshot();
    await sandbox.kill();
    await Sandbox.kill(sandbox.sandboxId, fixture.sdk);

    const log = (await fixture.emulator.callLog()).filter((call) => ['create', 'snapshot', 'kill'].includes(call.operation));
    expect(log.map((call) => [call.operation, call.sandboxId, call.metadata.owner, call.status])).toEqual([
      ['create', sandbox.sandboxId, 'r1', 201],
      ['snapshot', sandbox.sandboxId, 'r1', 201],
      ['kill', sandbox.sandboxId, 'r1', 204],
      ['kill', sandbox.sandboxId, undefined, 404],
    ]);
    for (const call of log) expect(call.endedAtMs).toBeGreaterThanOrEqual(call.startedAtMs);
    const [, snapshotCall] = log;
    // The snapshot's latency lies inside its recorded interval.
    expect(snapshotCall!.endedAtMs - snapshotCall!.startedAtMs).toBeGreaterThanOrEqual(300);
    expect(log[1]!.startedAtMs).toBeGreaterThanOrEqual(log[0]!.endedAtMs);
    await Sandbox.deleteSnapshot(snapshot.snapshotId, fixture.sdk);
    const deleted = (await fixture.emulator.callLog()).find((call) => call.operation === 'delete_template');
    expect(deleted).toMatchObject({ sandboxId: null, templateId: expect.stringContaining(snapshot.snapshotId.split(':')[0]!), status: 204 });
  });

  it('keeps overlapping calls apart, is served over the admin HTTP API, and is cleared by reset', async () => {
    // A snapshot's latency is the time it takes: a second snapshot arriving half-way through
    // it (not merely at the same moment) is refused, whatever the copy itself costs.
    await fixture.emulator.setLatency('snapshot', 600);
    const sandbox = await Sandbox.create(fixture.sdk);
    const first = sandbox.createSnapshot();
    await delay(300);
    const results = await Promise.allSettled([first, sandbox.createSnapshot()]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);

    const admin = new E2BEmulatorAdminClient(fixture.emulator.apiUrl);
    const snapshots = (await admin.callLog()).filter((call) => call.operation === 'snapshot');
    expect(snapshots.map((call) => call.status).sort()).toEqual([201, 409]);
    const [a, b] = snapshots as [(typeof snapshots)[0], (typeof snapshots)[0]];
    expect(a.startedAtMs < b.endedAtMs && b.startedAtMs < a.endedAtMs, 'the two calls overlap in the log').toBe(true);

    await admin.reset();
    expect(await admin.callLog()).toEqual([]);
  });
});
