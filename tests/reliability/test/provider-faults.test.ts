import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2BRig, type E2BRig } from '../support/e2b-rig';
import { outcomeOf } from '../support/error-shape';
import { writeFigures } from '../support/figures';
import { FAULT_POINTS } from '../support/fault-points';
import { runFaultCase, type FaultKind, type FaultOutcome } from '../support/fault-runner';
import { checkInvariants, eventually } from '../support/invariants';
import { namespaceReady } from '../support/namespace-ready';
import { checkpoint, closeAll, expectStatus, openRuntime, readText, writeText } from '../support/runtime-steps';

// Every provider call of checkpoint, checkout, pause, resume, close and delete-snapshot made to
// fail at the E2B emulator: an error status, a timeout at the provider's own E2B request
// deadline, and a 429. One emulator and one daemon for the file; faults are cleared between cases.
// None of those calls is a Connect stream (they are REST calls to E2B's control plane), so the
// stream cut is injected where streams are used: exec and search (envd process.Process/Start).
const REQUEST_TIMEOUT_MS = 3_000;
const HANG_MS = 4_000;
const FAULTS: FaultKind[] = ['error', 'timeout', 'capacity'];

let rig: E2BRig;
const outcomes: FaultOutcome[] = [];
const streamCuts: Array<{ operation: string; mode: string; status: number; code: string; retryStatus: number }> = [];

beforeAll(async () => {
  rig = await startE2BRig({ requestTimeoutMs: REQUEST_TIMEOUT_MS });
});

afterAll(async () => {
  writeFigures('provider-faults', { requestTimeoutMs: REQUEST_TIMEOUT_MS, hangMs: HANG_MS, outcomes, streamCuts });
  // A daemon that crashed during the file would not exit 0 on SIGTERM.
  if (rig) expect(await rig.stop(), 'runtimed exit code').toBe(0);
});

for (const point of FAULT_POINTS) {
  describe(`${point.operation}: ${point.step} (E2B ${point.call})`, () => {
    for (const fault of FAULTS) {
      it(`${fault}: the caller gets the right code, the runtime stays usable, a retry succeeds, nothing leaks`, async () => {
        outcomes.push(await runFaultCase(rig, point, fault, { hangMs: HANG_MS, deadline: 'provider-request' }));
      });
    }
  });
}

describe('Connect stream cut before `end` (exec and search)', () => {
  const cases = [
    { operation: 'exec', route: '/api/v1/runtimes/exec', body: (id: string) => ({ runtime_id: id, command: 'echo cut > b.txt' }) },
    { operation: 'search', route: '/api/v1/runtimes/search', body: (id: string) => ({ runtime_id: id, glob: '**/*.txt' }) },
  ];
  for (const { operation, route, body } of cases) {
    for (const mode of ['omit-end', 'reset'] as const) {
      it(`${operation}, stream ${mode}: provider_error, the runtime stays usable, a retry succeeds, the next checkpoint is fresh`, async () => {
        await rig.admin.reset();
        const runtimeId = await openRuntime(rig.api);
        try {
          await writeText(rig.api, runtimeId, 'a.txt', 'kept');
          await rig.api.ok('/api/v1/runtimes/checkpoint', { runtime_id: runtimeId });
          // The cut must meet a command that started, not one still waiting for its sandbox's
          // namespace: on a loaded machine that wait alone can pass the 3 s E2B request
          // deadline, and the caller would get the provider_timeout of a slow start instead.
          expect(await namespaceReady(rig.admin, runtimeId), 'namespace ready before the cut').toEqual([]);
          await rig.admin.dropNextStreams({ mode });
          const reply = await rig.api.post(route, body(runtimeId), { timeoutMs: 30_000 });
          expect({ status: reply.status, code: outcomeOf(reply) }).toEqual({ status: 502, code: 'provider_error' });
          // The command runs on after its stream was cut. Let it end first: while it runs, its
          // temporary FIFOs exist, and the emulator's snapshot (a file copy) cannot copy a FIFO
          // (E2B's own snapshots can), which would fail the checkpoint below for the wrong reason.
          const settled = await eventually(async () => {
            const sandbox = (await rig.admin.state()).sandboxes.find((candidate) => candidate.metadata.runtimectl_runtime_id === runtimeId);
            return { problems: sandbox && sandbox.runningProcesses > 0 ? [`${sandbox.runningProcesses} processes still running`] : [] };
          }, 20_000);
          expect(settled.problems).toEqual([]);
          await expectStatus(rig.api, runtimeId, 'idle');
          expect(await readText(rig.api, runtimeId, 'a.txt')).toBe('kept');
          const retried = await rig.api.post(route, body(runtimeId));
          expect(retried.status, retried.text).toBe(200);
          streamCuts.push({ operation, mode, status: reply.status, code: outcomeOf(reply), retryStatus: retried.status });
          // A command cut off mid-stream may have written: the next checkpoint must not reuse the old snapshot.
          const next = await rig.api.ok<{ reused_backend_snapshot: boolean }>('/api/v1/runtimes/checkpoint', { runtime_id: runtimeId });
          if (operation === 'exec') expect(next.reused_backend_snapshot).toBe(false);
          expect((await eventually(() => checkInvariants(rig.api, rig.admin))).problems).toEqual([]);
        } finally {
          await closeAll(rig.api, [runtimeId]);
        }
        const left = await eventually(async () => {
          const state = await rig.admin.state();
          return { problems: [...state.sandboxes.map((s) => s.sandboxId), ...state.snapshots.map((s) => s.snapshotId)] };
        });
        expect(left.problems, 'left at E2B').toEqual([]);
      });
    }
  }
});

describe('at the concurrent-sandbox limit', () => {
  it('steps that create no sandbox still work, resume waits for a free one with provider_capacity', async () => {
    await rig.admin.reset();
    const first = await openRuntime(rig.api);
    const second = await openRuntime(rig.api);
    try {
      await writeText(rig.api, first, 'a.txt', 'first');
      await rig.api.ok('/api/v1/runtimes/pause', { runtime_id: first });
      await rig.admin.setMaxSandboxes((await rig.admin.state()).sandboxes.length);
      // At the limit: checkpoint, delete-snapshot and pause make no sandbox, so they are not refused.
      const checkpointId = await checkpoint(rig.api, second);
      await rig.api.ok('/api/v1/runtimes/checkpoint/delete-snapshot', { checkpoint_id: checkpointId });
      const refused = await rig.api.post('/api/v1/runtimes/resume', { runtime_id: first });
      expect({ status: refused.status, code: outcomeOf(refused) }).toEqual({ status: 429, code: 'provider_capacity' });
      await expectStatus(rig.api, first, 'paused');
      // Pausing the other frees its sandbox: the refused resume now goes through.
      await rig.api.ok('/api/v1/runtimes/pause', { runtime_id: second });
      await rig.api.ok('/api/v1/runtimes/resume', { runtime_id: first });
      expect(await readText(rig.api, first, 'a.txt')).toBe('first');
      expect((await eventually(() => checkInvariants(rig.api, rig.admin))).problems).toEqual([]);
    } finally {
      await rig.admin.setMaxSandboxes(null);
      await closeAll(rig.api, [first, second]);
    }
  });
});
