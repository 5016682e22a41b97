import { RuntimeNotPausedError } from '../errors/runtime-state-errors';
import { resumeRuntime } from '../runtime/resume-runtime';
import type { OperationScope, ServiceContext } from '../runtime/service-context';
import { autoResumesOf } from './idle-settings';

/**
 * Before an operation that needs `runtimeId`'s live backend: when the runtime is paused (by the
 * idle pass or by a user) and auto-resumes, resumes it through the normal resume (its exclusive
 * lease: `session_busy` while another operation holds it) and reports the resume's duration
 * to `scope.onResume`. A runtime another request resumed meanwhile is simply used.
 */
export async function resumeIfPaused(ctx: ServiceContext, runtimeId: string, scope: OperationScope): Promise<void> {
  const session = await ctx.store.getSession(runtimeId);
  if (session?.status !== 'paused' || !autoResumesOf(ctx.idle, session)) return;
  const startedAt = performance.now();
  try {
    await resumeRuntime(ctx, { runtime_id: runtimeId }, { providerId: null });
  } catch (error) {
    if (!RuntimeNotPausedError.isInstance(error)) throw error;
  }
  scope.onResume?.(performance.now() - startedAt);
}
