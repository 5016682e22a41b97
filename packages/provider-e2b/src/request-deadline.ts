import type { ConnectionOpts } from 'e2b';

/**
 * Runs one SDK request under a deadline this provider enforces itself, passing `work` the
 * signal to hand the SDK. Why not only the SDK's `requestTimeoutMs`: the SDK builds it from
 * `AbortSignal.timeout()`, whose timer Node drops when the signal is garbage-collected — and
 * undici holds request signals weakly, so under GC pressure a hung request simply never times
 * out (reproduced with `--expose-gc` against the emulator). Here a plain timer aborts the
 * request and rejects with a DOMException named `TimeoutError`, as the platform's own timeout
 * would, so the error mapping treats both alike.
 */
export async function withDeadline<T>(timeoutMs: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError');
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  const pending = work(controller.signal);
  // The request settles after the race when the deadline won: its rejection is expected then.
  pending.catch(() => {});
  try {
    return await Promise.race([pending, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** Calls the SDK with the connection options and a deadline signal (see `withDeadline`). */
export type SdkCaller = <T>(work: (options: ConnectionOpts) => Promise<T>) => Promise<T>;

export function sdkCaller(connection: ConnectionOpts, timeoutMs: number): SdkCaller {
  return (work) => withDeadline(timeoutMs, (signal) => work({ ...connection, signal }));
}
