import type { EmulatorStateView } from '@runtimectl/e2b-emulator';
import { expect } from 'vitest';
import type { E2BRig } from './e2b-rig';
import { outcomeOf } from './error-shape';
import type { FaultPoint, Scenario } from './fault-points';
import { checkInvariants, eventually, type InvariantOptions } from './invariants';
import { closeAll } from './runtime-steps';

/**
 * How a provider call is made to fail:
 * - `error`: E2B answers 500;
 * - `timeout`: E2B does not answer before the deadline (the emulator holds the call `hangMs`, then
 *   carries it out anyway, as a slow E2B would);
 * - `capacity`: E2B answers 429: at the concurrent-sandbox limit for calls that create a sandbox,
 *   its API rate limit for the others (which the sandbox limit does not concern).
 */
export type FaultKind = 'error' | 'timeout' | 'capacity';

export const EXPECTED: Record<FaultKind, { status: number; code: string }> = {
  error: { status: 502, code: 'provider_error' },
  timeout: { status: 504, code: 'provider_timeout' },
  capacity: { status: 429, code: 'provider_capacity' },
};

/** One row of the fault report. */
export interface FaultOutcome {
  operation: string;
  call: string;
  step: string;
  fault: FaultKind;
  /** Which deadline the timeout hit: E2B request deadline of the provider, or the daemon's provider-call deadline. */
  deadline?: 'provider-request' | 'daemon-call';
  status: number;
  code: string;
  retryAfter: string | null;
  /** Status of the same call retried once the fault cleared (null when nothing was to retry). */
  retryStatus: number | null;
  leakFree: boolean;
}

export interface FaultRunOptions {
  /** How long a `timeout` fault holds the call at the emulator (longer than the deadline under test). */
  hangMs: number;
  deadline?: FaultOutcome['deadline'];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function clearFaults(rig: E2BRig): Promise<void> {
  await rig.admin.reset();
  await rig.admin.setMaxSandboxes(null);
}

async function inject(rig: E2BRig, point: FaultPoint, fault: FaultKind, hangMs: number): Promise<void> {
  if (fault === 'error') await rig.admin.failNext(point.call, { status: 500 });
  else if (fault === 'timeout') await rig.admin.hangNext(point.call, { ms: hangMs });
  else if (point.call === 'create') {
    // The real limit: exactly as many sandboxes as are running now, so the next create is one too many.
    const running = (await rig.admin.state()).sandboxes.filter((sandbox) => sandbox.state === 'running').length;
    await rig.admin.setMaxSandboxes(running);
  } else await rig.admin.failNext(point.call, { status: 429 });
}

/** Nothing at E2B that was not there before the call, and the invariants hold. */
async function leakReport(rig: E2BRig, before: Set<string> | undefined, options: InvariantOptions) {
  const report = await checkInvariants(rig.api, rig.admin, options);
  const state = await rig.admin.state();
  const appeared = before ? state.snapshots.map((snapshot) => snapshot.snapshotId).filter((id) => !before.has(id)) : [];
  return { ...report, problems: [...report.problems, ...appeared.map((id) => `snapshot ${id} appeared`)] };
}

/**
 * One fault point × one fault, with the four assertions of the issue: the right code (never a
 * 500, never a hang), a state the next call can use, the same call succeeding once the fault
 * cleared, and nothing leaked at E2B (checked before the retry and again after closing).
 */
export async function runFaultCase(rig: E2BRig, point: FaultPoint, fault: FaultKind, options: FaultRunOptions): Promise<FaultOutcome> {
  await clearFaults(rig);
  const baseline = resourcesOf(await rig.admin.state());
  const scenario = await point.arrange(rig);
  try {
    return await exercise(rig, point, fault, options, scenario, baseline);
  } finally {
    // Whatever failed above, leave nothing of this case for the next one to trip over:
    // re-closing also retries the snapshot clean-up a failed call left behind.
    await clearFaults(rig);
    await closeAll(rig.api, scenario.runtimes, { reclose: true }).catch(() => {});
  }
}

function resourcesOf(state: EmulatorStateView): Set<string> {
  return new Set([...state.sandboxes.map((s) => `sandbox ${s.sandboxId}`), ...state.snapshots.map((s) => `snapshot ${s.snapshotId}`)]);
}

async function exercise(
  rig: E2BRig,
  point: FaultPoint,
  fault: FaultKind,
  options: FaultRunOptions,
  scenario: Scenario,
  baseline: Set<string>,
): Promise<FaultOutcome> {
  const before = new Set((await rig.admin.state()).snapshots.map((snapshot) => snapshot.snapshotId));

  await inject(rig, point, fault, options.hangMs);
  const startedAt = Date.now();
  // A client-side bound far above every deadline: reaching it means the daemon hung.
  const reply = await rig.api.post(scenario.route, scenario.body, { timeoutMs: 30_000 });
  const code = outcomeOf(reply);
  const retryAfter = reply.headers.get('retry-after');
  await clearFaults(rig);

  if (point.afterCommit) {
    expect(reply.status, `${point.operation} is done before its clean-up step fails`).toBe(200);
  } else {
    expect({ status: reply.status, code }).toEqual(EXPECTED[fault]);
  }
  if (code === 'provider_capacity' && retryAfter !== null) expect(retryAfter).toMatch(/^\d+$/);

  // A held call is carried out by E2B when the hold ends: judge the state only after that.
  if (fault === 'timeout') await sleep(Math.max(0, startedAt + options.hangMs + 500 - Date.now()));
  // New snapshots are allowed only when the call succeeded (its clean-up step failed after the
  // commit) or when the point keeps its snapshot on purpose (a pause whose release failed);
  // closing everything below proves them not leaked.
  const releaseUnknown = point.releases === true && fault === 'timeout';
  const unknown = releaseUnknown ? { releaseOutcomeUnknown: new Set(scenario.runtimes) } : {};
  const mayAddSnapshots = reply.status === 200 || point.keepsSnapshotOnFailure === true;
  const afterFault = await eventually(() => leakReport(rig, mayAddSnapshots ? undefined : before, unknown), 12_000);
  expect(afterFault.problems, 'after the failed call').toEqual([]);
  await scenario.afterFailure(fault);

  let retryStatus: number | null = null;
  if (!point.afterCommit) {
    const retried = await rig.api.post(scenario.route, scenario.body, { timeoutMs: 30_000 });
    retryStatus = retried.status;
    expect(retried.status, `retry: ${retried.text.slice(0, 300)}`).toBe(200);
    await scenario.afterRetry(retried);
  }
  const afterRetry = await eventually(() => checkInvariants(rig.api, rig.admin), 12_000);
  expect(afterRetry.problems, 'after the retry').toEqual([]);

  await closeAll(rig.api, scenario.runtimes);
  const cleared = await eventually(async () => ({ problems: [...resourcesOf(await rig.admin.state())].filter((id) => !baseline.has(id)) }), 12_000);
  expect(cleared.problems, 'left at E2B after closing every runtime').toEqual([]);

  return {
    operation: point.operation,
    call: point.call,
    step: point.step,
    fault,
    ...(fault === 'timeout' && options.deadline ? { deadline: options.deadline } : {}),
    status: reply.status,
    code,
    retryAfter,
    retryStatus,
    leakFree: true,
  };
}
