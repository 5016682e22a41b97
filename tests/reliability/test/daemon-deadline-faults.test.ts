import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2BRig, type E2BRig } from '../support/e2b-rig';
import { writeFigures } from '../support/figures';
import { FAULT_POINTS } from '../support/fault-points';
import { runFaultCase, type FaultOutcome } from '../support/fault-runner';

// The same fault points, timed out by the daemon's own deadline on provider calls
// (runtimes.provider_call_timeout_ms) while the provider's E2B request is still waiting: E2B
// answers after the daemon gave up, so every late result (a sandbox, a snapshot, a kill, a
// delete) arrives when nobody waits for it any more.
const PROVIDER_CALL_TIMEOUT_MS = 3_000;
const HANG_MS = 4_000;

let rig: E2BRig;
const outcomes: FaultOutcome[] = [];

beforeAll(async () => {
  rig = await startE2BRig({ providerCallTimeoutMs: PROVIDER_CALL_TIMEOUT_MS, requestTimeoutMs: 30_000 });
});

afterAll(async () => {
  writeFigures('daemon-deadline-faults', { providerCallTimeoutMs: PROVIDER_CALL_TIMEOUT_MS, hangMs: HANG_MS, outcomes });
  // A daemon that crashed during the file would not exit 0 on SIGTERM.
  if (rig) expect(await rig.stop(), 'runtimed exit code').toBe(0);
});

for (const point of FAULT_POINTS) {
  describe(`${point.operation}: ${point.step} (E2B ${point.call})`, () => {
    it('timeout at the daemon\'s deadline: the right code, a usable runtime, a retry that succeeds, nothing leaked', async () => {
      outcomes.push(await runFaultCase(rig, point, 'timeout', { hangMs: HANG_MS, deadline: 'daemon-call' }));
    });
  });
}
