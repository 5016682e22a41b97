import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';

/** What the SDK hands a tool callback besides its input: the request's `_meta` and a way to notify. */
export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Runs one long operation of a tool call, telling the client how it goes when it asked (see `progressReporter`). */
export type WithProgress = <T>(extra: ToolExtra, label: string, run: () => Promise<T>) => Promise<T>;

/** How often a long tool call says it is still running, unless the server is told otherwise. */
export const DEFAULT_PROGRESS_INTERVAL_MS = 5_000;

/**
 * For the tool calls that can take long (exec, checkout, fork, pause, resume, open_runtime). When
 * the call carries `_meta.progressToken`, it sends `notifications/progress` as the operation
 * starts (progress 0), every `intervalMs` while it runs — so a client that resets its request
 * timeout on progress keeps waiting for a long command — and as it ends: done or failed, and in
 * how long, with `total` equal to `progress` (complete). Progress counts notifications: the daemon
 * says nothing of an operation until it answers, so there is no fraction to report. A call without
 * a token costs nothing: no timer, no notification.
 */
export function progressReporter(intervalMs: number = DEFAULT_PROGRESS_INTERVAL_MS): WithProgress {
  return async (extra, label, run) => {
    const progressToken = extra._meta?.progressToken;
    if (progressToken === undefined) return run();
    let progress = 0;
    const notify = (message: string, last = false): Promise<void> => {
      const params = { progressToken, progress, message, ...(last ? { total: progress } : {}) };
      progress += 1;
      // Progress is a courtesy: a notification that cannot be sent (the client went away; a
      // transport answering with JSON only drops them) must not fail the operation it is about.
      return extra.sendNotification({ method: 'notifications/progress', params }).catch(() => undefined);
    };
    const startedAt = performance.now();
    const took = () => `${((performance.now() - startedAt) / 1000).toFixed(1)} s`;
    await notify(`${label}: started`);
    const heartbeat = setInterval(() => void notify(`${label}: running for ${took()}`), intervalMs);
    let ended = 'failed after';
    try {
      const result = await run();
      ended = 'done in';
      return result;
    } finally {
      clearInterval(heartbeat);
      await notify(`${label}: ${ended} ${took()}`, true);
    }
  };
}
