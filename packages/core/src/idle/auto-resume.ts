import { RuntimeNotPausedError, RuntimePausedError, SessionBusyError } from '../errors/runtime-state-errors';
import { resumeRuntime } from '../runtime/resume-runtime';
import type { OperationScope, ServiceContext } from '../runtime/service-context';
import { autoResumesOf } from './idle-settings';

/**
 * How long an operation on a paused runtime waits, in all, for other holders of the runtime
 * (operations racing it, or a resume elsewhere in the fleet) before `session_busy` stands. A
 * resume already running on this node is waited for whole: the provider call's own deadline bounds it.
 */
export const AUTO_RESUME_WAIT_MS = 30_000;
const FIRST_RETRY_MS = 5;
const LONGEST_RETRY_MS = 200;

/**
 * The auto-resumes running on this node, one per runtime at a time: an operation that finds its
 * runtime paused joins the resume in flight instead of starting a second one, and an operation
 * arriving meanwhile waits for it instead of taking the runtime's lease (which would make the
 * resume's exclusive lease fail, or make it fail itself with `session_busy`).
 */
export class AutoResumes {
  readonly #inFlight = new Map<string, Promise<void>>();

  /** The resume of `runtimeId` running on this node, if any. */
  inFlight(runtimeId: string): Promise<void> | undefined {
    return this.#inFlight.get(runtimeId);
  }

  /**
   * Resumes `runtimeId`, or joins the resume of it already running here. Other holders of the
   * runtime's lease (operations that have not yet seen it paused) are waited out with short
   * backoffs until `deadlineMs` (performance.now() time); someone else's resume counts as done.
   * Rejects with the resume's error (every joiner alike), or `session_busy` past the deadline.
   */
  resume(ctx: ServiceContext, runtimeId: string, deadlineMs: number): Promise<void> {
    let running = this.#inFlight.get(runtimeId);
    if (!running) {
      running = resumeWhenFree(ctx, runtimeId, deadlineMs).finally(() => this.#inFlight.delete(runtimeId));
      this.#inFlight.set(runtimeId, running);
    }
    return running;
  }
}

async function resumeWhenFree(ctx: ServiceContext, runtimeId: string, deadlineMs: number): Promise<void> {
  for (let retryMs = FIRST_RETRY_MS; ; retryMs = Math.min(retryMs * 2, LONGEST_RETRY_MS)) {
    try {
      await resumeRuntime(ctx, { runtime_id: runtimeId }, { providerId: null }, 'auto');
      return;
    } catch (error) {
      // Another request (or node) resumed it meanwhile: the operation runs on that.
      if (RuntimeNotPausedError.isInstance(error)) return;
      if (!SessionBusyError.isInstance(error) || performance.now() + retryMs > deadlineMs) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, retryMs));
  }
}

/**
 * Runs an operation that needs `runtimeId`'s live backend. Should it find the runtime paused (by
 * the idle pass or by a user) and the runtime auto-resumes, resumes it through the normal resume
 * (its exclusive lease) and runs the operation again; operations arriving together share one
 * resume, and one that meets the resume's lease (`session_busy`) waits for it rather than
 * failing — all bounded by AUTO_RESUME_WAIT_MS and the resume's own deadlines. The time spent
 * waiting for resumes goes to `scope.onResume`, once. Otherwise `runtime_paused` (or the
 * `session_busy` of an idle runtime's control operation) stands. Costs nothing on a live
 * runtime: the paused case is learnt from the operation itself.
 */
export async function withAutoResume<T>(ctx: ServiceContext, runtimeId: string, scope: OperationScope, operation: () => Promise<T>): Promise<T> {
  const deadlineMs = performance.now() + AUTO_RESUME_WAIT_MS;
  let waitedMs: number | undefined;
  const wait = async (resume: Promise<void>) => {
    const startedAt = performance.now();
    try {
      await resume;
    } finally {
      waitedMs = (waitedMs ?? 0) + performance.now() - startedAt;
    }
  };
  try {
    // A resume of this runtime already running here: wait for it rather than take its lease.
    const running = ctx.autoResumes.inFlight(runtimeId);
    if (running) await wait(running);
    for (;;) {
      try {
        return await operation();
      } catch (error) {
        const awaited = await resumeFor(ctx, runtimeId, error, deadlineMs);
        if (!awaited) throw error;
        await wait(awaited.resume);
      }
    }
  } finally {
    if (waitedMs !== undefined) scope.onResume?.(waitedMs);
  }
}

/**
 * The resume to wait for before trying the operation again, or null: its error stands. (Boxed:
 * an async function returning the promise itself would wait for it, and answer its `undefined`.)
 */
async function resumeFor(ctx: ServiceContext, runtimeId: string, error: unknown, deadlineMs: number): Promise<{ resume: Promise<void> } | null> {
  const paused = RuntimePausedError.isInstance(error);
  if (!paused && !SessionBusyError.isInstance(error)) return null;
  const running = ctx.autoResumes.inFlight(runtimeId);
  if (running) return { resume: running };
  if (performance.now() >= deadlineMs) return null;
  const session = await ctx.store.getSession(runtimeId);
  if (session?.status === 'paused' && autoResumesOf(ctx.idle, session)) return { resume: ctx.autoResumes.resume(ctx, runtimeId, deadlineMs) };
  // Seen paused, now idle: someone resumed it meanwhile; try again. Busy on an idle runtime: a control operation, which stands.
  return paused && session?.status === 'idle' ? { resume: Promise.resolve() } : null;
}
