import { RuntimeNotPausedError, RuntimePausedError } from '../errors/runtime-state-errors';
import { resumeRuntime } from '../runtime/resume-runtime';
import type { OperationScope, ServiceContext } from '../runtime/service-context';
import { autoResumesOf } from './idle-settings';

/**
 * Runs an operation that needs `runtimeId`'s live backend. Should it find the runtime paused (by
 * the idle pass or by a user) and the runtime auto-resumes, resumes it through the normal resume
 * (its exclusive lease: `session_busy` while another operation holds it), reports the resume's
 * duration to `scope.onResume` and runs the operation once more; otherwise `runtime_paused`
 * stands. Costs nothing on a live runtime: the paused case is learnt from the operation itself.
 */
export async function withAutoResume<T>(ctx: ServiceContext, runtimeId: string, scope: OperationScope, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (!RuntimePausedError.isInstance(error) || !(await resumeForOperation(ctx, runtimeId, scope))) throw error;
    return operation();
  }
}

/** Resumes the runtime when it is paused and auto-resumes; false when it does not (the operation's `runtime_paused` stands). */
async function resumeForOperation(ctx: ServiceContext, runtimeId: string, scope: OperationScope): Promise<boolean> {
  const session = await ctx.store.getSession(runtimeId);
  if (session?.status !== 'paused' || !autoResumesOf(ctx.idle, session)) return false;
  const startedAt = performance.now();
  try {
    await resumeRuntime(ctx, { runtime_id: runtimeId }, { providerId: null }, 'auto');
  } catch (error) {
    // Another request resumed it meanwhile: the operation runs on that.
    if (!RuntimeNotPausedError.isInstance(error)) throw error;
  }
  scope.onResume?.(performance.now() - startedAt);
  return true;
}
