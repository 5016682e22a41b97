import type { E2BEmulatorAdminClient, EmulatorStateView } from '@runtimectl/e2b-emulator';
import type { Api } from './http';

export interface RuntimeRecordView {
  runtime_id: string;
  status: 'idle' | 'running' | 'paused' | 'failed' | 'closed';
}

export interface RuntimeDetailView {
  runtime: RuntimeRecordView;
  provider: string;
  head_checkpoint_id: string | null;
  paused_checkpoint_id: string | null;
  parent_runtime_id: string | null;
  forked_from_checkpoint_id: string | null;
  last_error: string | null;
}

export const runtimePath = (runtimeId: string) => `/api/v1/runtimes/${encodeURIComponent(runtimeId)}`;

/** Every runtime the daemon knows, page by page (bounded: at most 100 pages). */
export async function listAllRuntimes(api: Api): Promise<RuntimeRecordView[]> {
  const runtimes: RuntimeRecordView[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 100; page += 1) {
    const query: string = cursor === null ? '?limit=500' : `?limit=500&cursor=${encodeURIComponent(cursor)}`;
    const body = await api.read<{ runtimes: RuntimeRecordView[]; next_cursor: string | null }>(`/api/v1/runtimes${query}`);
    runtimes.push(...body.runtimes);
    cursor = body.next_cursor;
    if (cursor === null) return runtimes;
  }
  throw new Error('more than 100 pages of runtimes');
}

export async function runtimeDetail(api: Api, runtimeId: string): Promise<RuntimeDetailView> {
  return api.read<RuntimeDetailView>(runtimePath(runtimeId));
}

/** Live sandboxes at the emulator labelled with `runtimeId` (the provider puts core's labels in their metadata). */
export function sandboxesOf(state: EmulatorStateView, runtimeId: string) {
  return state.sandboxes.filter((sandbox) => sandbox.metadata.runtimectl_runtime_id === runtimeId);
}

export interface InvariantReport {
  problems: string[];
  runtimes: number;
  sandboxes: number;
  snapshots: number;
}

export interface InvariantOptions {
  /**
   * Idle runtimes whose release timed out: E2B may still have carried the kill out after the
   * deadline, so they may be bound to a sandbox that is gone (the next call finds out).
   */
  releaseOutcomeUnknown?: Set<string>;
}

/**
 * The control-plane invariants of core's property test, checked from outside: through the HTTP
 * API (runtimes, their lineage, their checkpoints) and the emulator's `GET /_emulator/state`.
 * - lineage is a forest: every parent exists, the checkpoint a child came from is its parent's,
 *   and following parents always ends;
 * - a paused runtime has no live sandbox, and its resume point still has a provider snapshot;
 * - no orphan sandbox: every live sandbox belongs to an idle runtime (not closed, paused or
 *   failed), and every idle runtime has exactly one.
 * Call it when no operation is in flight.
 */
export async function checkInvariants(api: Api, emulator: E2BEmulatorAdminClient, options: InvariantOptions = {}): Promise<InvariantReport> {
  const problems: string[] = [];
  const runtimes = await listAllRuntimes(api);
  const details = new Map<string, RuntimeDetailView>();
  for (const runtime of runtimes) details.set(runtime.runtime_id, await runtimeDetail(api, runtime.runtime_id));
  const state = await emulator.state();

  for (const [id, detail] of details) {
    const parent = detail.parent_runtime_id;
    if (parent !== null) {
      if (!details.has(parent)) problems.push(`${id}: parent ${parent} does not exist`);
      const from = detail.forked_from_checkpoint_id;
      if (from === null) problems.push(`${id}: has a parent but no forked_from_checkpoint_id`);
      else {
        const checkpoint = await api.read<{ runtime_id: string }>(`/api/v1/checkpoints/${from}`);
        if (checkpoint.runtime_id !== parent) problems.push(`${id}: forked from ${from}, which belongs to ${checkpoint.runtime_id}, not parent ${parent}`);
      }
    }
    const seen = new Set<string>([id]);
    for (let at = parent; at !== null && at !== undefined; at = details.get(at)?.parent_runtime_id ?? null) {
      if (seen.has(at)) {
        problems.push(`${id}: lineage cycle through ${at}`);
        break;
      }
      seen.add(at);
    }
  }

  for (const [id, detail] of details) {
    const live = sandboxesOf(state, id).filter((sandbox) => sandbox.state === 'running');
    const status = detail.runtime.status;
    if (status === 'paused') {
      if (live.length > 0) problems.push(`${id}: paused but has live sandbox ${live.map((s) => s.sandboxId).join(', ')}`);
      if (detail.paused_checkpoint_id === null) problems.push(`${id}: paused without a paused_checkpoint_id`);
      else {
        const resumePoint = await api.read<{ has_provider_snapshot: boolean }>(`/api/v1/checkpoints/${detail.paused_checkpoint_id}`);
        if (!resumePoint.has_provider_snapshot) problems.push(`${id}: paused, but its resume point has no provider snapshot`);
      }
    } else if (status === 'idle') {
      const allowed = options.releaseOutcomeUnknown?.has(id) ? [0, 1] : [1];
      if (!allowed.includes(live.length)) problems.push(`${id}: idle with ${live.length} live sandboxes (expected 1)`);
    } else if (live.length > 0) {
      problems.push(`${id}: ${status} but has live sandbox ${live.map((s) => s.sandboxId).join(', ')}`);
    }
  }
  for (const sandbox of state.sandboxes) {
    const owner = sandbox.metadata.runtimectl_runtime_id;
    if (owner === undefined || !details.has(owner)) problems.push(`orphan sandbox ${sandbox.sandboxId} (runtime label ${String(owner)})`);
    if (sandbox.state !== 'running') problems.push(`sandbox ${sandbox.sandboxId} is ${sandbox.state} (runtimectl never uses E2B pause)`);
  }
  return { problems, runtimes: runtimes.length, sandboxes: state.sandboxes.length, snapshots: state.snapshots.length };
}

/** Polls `check` until it reports no problem or `timeoutMs` passes (bounded); returns the last report. */
export async function eventually<T extends { problems: string[] }>(check: () => Promise<T>, timeoutMs = 15_000, intervalMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let report = await check();
  while (report.problems.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    report = await check();
  }
  return report;
}
