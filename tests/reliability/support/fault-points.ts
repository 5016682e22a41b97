import type { EmulatorOperation } from '@runtimectl/e2b-emulator';
import { expect } from 'vitest';
import type { E2BRig } from './e2b-rig';
import type { FaultKind } from './fault-runner';
import type { Reply } from './http';
import { listAllRuntimes, runtimeDetail, sandboxesOf } from './invariants';
import { checkoutChild, checkpoint, expectStatus, hasProviderSnapshot, openRuntime, readText, writeText } from './runtime-steps';

/** One situation built so that the request under test reaches the faulty provider call. */
export interface Scenario {
  route: string;
  body: Record<string, unknown>;
  /** Runtimes the scenario opened; closed at the end of the case. */
  runtimes: string[];
  /** What must hold after the failed call: the state makes sense and the next call can use it. */
  afterFailure(fault: FaultKind): Promise<void>;
  /** What must hold once the same call, retried after the fault cleared, succeeded. */
  afterRetry(reply: Reply): Promise<void>;
}

/** A provider call made by one step of a control operation (a "fault point"). */
export interface FaultPoint {
  /** The HTTP operation: checkpoint, checkout, pause, resume, close, delete-snapshot. */
  operation: string;
  /** The E2B call at the emulator that fails. */
  call: EmulatorOperation;
  /** What the step does, for the report. */
  step: string;
  /**
   * true when the call releases a sandbox (E2B kill): after a timeout its outcome is unknown,
   * because E2B may carry the kill out once the deadline has passed.
   */
  releases?: boolean;
  /**
   * true when the failed call may leave a new snapshot behind on purpose: a pause whose release
   * failed has already taken its snapshot, and keeping it (recorded, or for the retry) is what
   * makes the retry lose nothing. Closing everything at the end of the case proves it not leaked.
   */
  keepsSnapshotOnFailure?: boolean;
  /**
   * true when the step is clean-up after the operation has already happened (a failure there
   * cannot un-pause a runtime): the caller gets 200 and the clean-up is retried later.
   */
  afterCommit?: boolean;
  arrange(rig: E2BRig): Promise<Scenario>;
}

const TEXT = 'work that must survive';

async function liveSandboxCount(rig: E2BRig, runtimeId: string): Promise<number> {
  return sandboxesOf(await rig.admin.state(), runtimeId).filter((sandbox) => sandbox.state === 'running').length;
}

/** An idle runtime with unsnapshotted work in a.txt. */
async function dirtyRuntime(rig: E2BRig): Promise<string> {
  const runtimeId = await openRuntime(rig.api);
  await writeText(rig.api, runtimeId, 'a.txt', TEXT);
  return runtimeId;
}

/** After a failed call: still idle, bound to a live sandbox that still has the work. */
async function expectIdleAndUsable(rig: E2BRig, runtimeId: string): Promise<void> {
  const detail = await expectStatus(rig.api, runtimeId, 'idle');
  expect(detail.paused_checkpoint_id).toBeNull();
  expect(await liveSandboxCount(rig, runtimeId), 'live sandboxes of the runtime').toBe(1);
  expect(await readText(rig.api, runtimeId, 'a.txt')).toBe(TEXT);
}

/**
 * After a release that timed out: E2B may have killed the sandbox after the deadline, so
 * whether it is live is unknown. The runtime must still be idle and bound (not paused, not
 * closed, not failed), at most one sandbox carries it, and the retry (release is idempotent)
 * finishes the job; the retry's checks prove nothing was lost.
 */
async function expectIdleAfterUnknownRelease(rig: E2BRig, runtimeId: string): Promise<void> {
  const detail = await expectStatus(rig.api, runtimeId, 'idle');
  expect(detail.paused_checkpoint_id).toBeNull();
  expect(await liveSandboxCount(rig, runtimeId)).toBeLessThanOrEqual(1);
}

/** A paused runtime resumes with its work intact. */
async function expectPausedThenResumable(rig: E2BRig, runtimeId: string): Promise<void> {
  await expectStatus(rig.api, runtimeId, 'paused');
  expect(await liveSandboxCount(rig, runtimeId)).toBe(0);
  await rig.api.ok('/api/v1/runtimes/resume', { runtime_id: runtimeId });
  expect(await readText(rig.api, runtimeId, 'a.txt')).toBe(TEXT);
}

async function childrenOf(rig: E2BRig, runtimeId: string): Promise<string[]> {
  return (await listAllRuntimes(rig.api)).map((runtime) => runtime.runtime_id).filter((id) => id.startsWith(`${runtimeId}:checkout:`));
}

export const FAULT_POINTS: FaultPoint[] = [
  {
    operation: 'checkpoint',
    call: 'snapshot',
    step: 'snapshot the sandbox',
    async arrange(rig) {
      const runtimeId = await dirtyRuntime(rig);
      return {
        route: '/api/v1/runtimes/checkpoint',
        body: { runtime_id: runtimeId },
        runtimes: [runtimeId],
        afterFailure: async () => {
          expect((await runtimeDetail(rig.api, runtimeId)).head_checkpoint_id, 'no checkpoint recorded').toBeNull();
          await expectIdleAndUsable(rig, runtimeId);
        },
        afterRetry: async (reply) => {
          const body = reply.json as { checkpoint_id: string; reused_backend_snapshot: boolean };
          expect(body.reused_backend_snapshot).toBe(false);
          expect((await runtimeDetail(rig.api, runtimeId)).head_checkpoint_id).toBe(body.checkpoint_id);
          expect(await hasProviderSnapshot(rig.api, body.checkpoint_id)).toBe(true);
        },
      };
    },
  },
  {
    operation: 'checkout',
    call: 'create',
    step: 'create a sandbox from the snapshot',
    async arrange(rig) {
      const runtimeId = await dirtyRuntime(rig);
      const checkpointId = await checkpoint(rig.api, runtimeId);
      return {
        route: '/api/v1/runtimes/checkout',
        body: { checkpoint_id: checkpointId },
        runtimes: [runtimeId],
        afterFailure: async () => {
          expect(await childrenOf(rig, runtimeId), 'no child runtime').toEqual([]);
          await expectIdleAndUsable(rig, runtimeId);
        },
        afterRetry: async (reply) => {
          const childId = (reply.json as { runtime: { runtime_id: string } }).runtime.runtime_id;
          expect(await childrenOf(rig, runtimeId)).toEqual([childId]);
          expect(await readText(rig.api, childId, 'a.txt')).toBe(TEXT);
        },
      };
    },
  },
  ...(['snapshot', 'kill'] as const).map(
    (call): FaultPoint => ({
      operation: 'pause',
      call,
      step: call === 'snapshot' ? 'snapshot the sandbox' : 'kill the sandbox (release)',
      releases: call === 'kill',
      keepsSnapshotOnFailure: call === 'kill',
      async arrange(rig) {
        const runtimeId = await dirtyRuntime(rig);
        return {
          route: '/api/v1/runtimes/pause',
          body: { runtime_id: runtimeId },
          runtimes: [runtimeId],
          afterFailure: (fault) => (call === 'kill' && fault === 'timeout' ? expectIdleAfterUnknownRelease(rig, runtimeId) : expectIdleAndUsable(rig, runtimeId)),
          afterRetry: () => expectPausedThenResumable(rig, runtimeId),
        };
      },
    }),
  ),
  {
    operation: 'pause',
    call: 'delete_template',
    step: 'delete the snapshot the released sandbox came from, when nothing keeps it',
    afterCommit: true,
    async arrange(rig) {
      // A checkout child whose source runtime was closed: once the child's sandbox is released
      // by the pause, nothing keeps the source snapshot any more and the pause deletes it.
      const parentId = await dirtyRuntime(rig);
      const childId = await checkoutChild(rig.api, await checkpoint(rig.api, parentId));
      await rig.api.ok('/api/v1/runtimes/close', { runtime_id: parentId });
      await writeText(rig.api, childId, 'b.txt', 'child work');
      return {
        route: '/api/v1/runtimes/pause',
        body: { runtime_id: childId },
        runtimes: [childId, parentId],
        afterFailure: () => expectPausedThenResumable(rig, childId),
        afterRetry: async () => {},
      };
    },
  },
  {
    operation: 'resume',
    call: 'create',
    step: 'create a sandbox from the pause snapshot',
    async arrange(rig) {
      const runtimeId = await dirtyRuntime(rig);
      const paused = await rig.api.ok<{ checkpoint_id: string }>('/api/v1/runtimes/pause', { runtime_id: runtimeId });
      return {
        route: '/api/v1/runtimes/resume',
        body: { runtime_id: runtimeId },
        runtimes: [runtimeId],
        afterFailure: async () => {
          const detail = await expectStatus(rig.api, runtimeId, 'paused');
          expect(detail.paused_checkpoint_id).toBe(paused.checkpoint_id);
          expect(await liveSandboxCount(rig, runtimeId)).toBe(0);
          expect(await hasProviderSnapshot(rig.api, paused.checkpoint_id)).toBe(true);
        },
        afterRetry: async () => {
          await expectStatus(rig.api, runtimeId, 'idle');
          expect(await readText(rig.api, runtimeId, 'a.txt')).toBe(TEXT);
        },
      };
    },
  },
  {
    operation: 'close',
    call: 'kill',
    step: 'kill the sandbox (release)',
    releases: true,
    async arrange(rig) {
      const runtimeId = await dirtyRuntime(rig);
      const checkpointId = await checkpoint(rig.api, runtimeId);
      return {
        route: '/api/v1/runtimes/close',
        body: { runtime_id: runtimeId },
        runtimes: [runtimeId],
        afterFailure: (fault) => (fault === 'timeout' ? expectIdleAfterUnknownRelease(rig, runtimeId) : expectIdleAndUsable(rig, runtimeId)),
        afterRetry: async () => {
          await expectStatus(rig.api, runtimeId, 'closed');
          expect(await hasProviderSnapshot(rig.api, checkpointId)).toBe(false);
        },
      };
    },
  },
  {
    operation: 'close',
    call: 'delete_template',
    step: 'delete the snapshots nothing keeps any more',
    async arrange(rig) {
      const runtimeId = await dirtyRuntime(rig);
      const checkpointId = await checkpoint(rig.api, runtimeId);
      return {
        route: '/api/v1/runtimes/close',
        body: { runtime_id: runtimeId },
        runtimes: [runtimeId],
        afterFailure: async () => {
          // The close itself happened (sandbox released, runtime closed); the snapshot stays
          // recorded so that closing again retries its deletion.
          await expectStatus(rig.api, runtimeId, 'closed');
          expect(await liveSandboxCount(rig, runtimeId)).toBe(0);
          expect(await hasProviderSnapshot(rig.api, checkpointId)).toBe(true);
        },
        afterRetry: async (reply) => {
          expect((reply.json as { deleted_snapshot_ids: string[] }).deleted_snapshot_ids).toHaveLength(1);
          expect(await hasProviderSnapshot(rig.api, checkpointId)).toBe(false);
        },
      };
    },
  },
  {
    operation: 'delete-snapshot',
    call: 'delete_template',
    step: 'delete the checkpoint\'s snapshot',
    async arrange(rig) {
      const runtimeId = await dirtyRuntime(rig);
      const checkpointId = await checkpoint(rig.api, runtimeId);
      return {
        route: '/api/v1/runtimes/checkpoint/delete-snapshot',
        body: { checkpoint_id: checkpointId },
        runtimes: [runtimeId],
        afterFailure: async () => {
          expect(await hasProviderSnapshot(rig.api, checkpointId)).toBe(true);
          await expectIdleAndUsable(rig, runtimeId);
        },
        afterRetry: async () => {
          expect(await hasProviderSnapshot(rig.api, checkpointId)).toBe(false);
        },
      };
    },
  },
];
