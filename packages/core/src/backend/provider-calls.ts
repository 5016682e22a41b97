import { ProviderError, ProviderTimeoutError, RuntimectlError } from '@runtimectl/provider';

export interface ProviderCallEvent {
  providerId: string;
  call: string;
  durationMs: number;
  /** 'ok' or the error code the call ended with. */
  outcome: string;
}

/** Receives every provider call's event once the call has ended. Must not throw. */
export type ProviderCallSink = (event: ProviderCallEvent) => void;

export interface ProviderCallOptions {
  timeoutMs: number;
  /** Receives a result that arrives after the deadline, so it can be cleaned up (e.g. released). */
  onLateResult?: (value: unknown) => void;
}

/**
 * What a caller is told of an error a provider threw that is not one of core's typed errors: a
 * foreign message may name host paths, provider ids or keys, so it stays in the error's cause,
 * which the daemon logs. Providers that want their words shown throw `ProviderError` (or another
 * typed error) with a message written for callers.
 */
const FOREIGN_ERROR_TEXT = 'the provider raised an unexpected error (details in the daemon log)';

/**
 * Runs every provider call with a deadline, turns foreign errors into `ProviderError` naming
 * the call (with a generic message, see FOREIGN_ERROR_TEXT), and reports each call's duration
 * and outcome.
 */
export class ProviderCalls {
  constructor(private readonly report: ProviderCallSink) {}

  /** The same calls, each also reported to `sink` (one operation's provider time). */
  reportingTo(sink: ProviderCallSink): ProviderCalls {
    return new ProviderCalls((event) => {
      this.report(event);
      sink(event);
    });
  }

  async run<T>(providerId: string, call: string, options: ProviderCallOptions, fn: () => Promise<T>): Promise<T> {
    const startedAt = performance.now();
    let timer: NodeJS.Timeout | undefined;
    let timedOut = false;
    const work = Promise.resolve().then(fn);
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        timedOut = true;
        reject(new ProviderTimeoutError(providerId, call, options.timeoutMs));
      }, options.timeoutMs);
      timer.unref?.();
    });
    work.then(
      (value) => {
        if (timedOut) options.onLateResult?.(value);
      },
      () => {},
    );
    try {
      const value = await Promise.race([work, deadline]);
      this.report({ providerId, call, durationMs: performance.now() - startedAt, outcome: 'ok' });
      return value;
    } catch (error) {
      const normalized = RuntimectlError.isInstance(error) ? error : new ProviderError(providerId, call, FOREIGN_ERROR_TEXT, error);
      this.report({ providerId, call, durationMs: performance.now() - startedAt, outcome: normalized.code });
      throw normalized;
    } finally {
      clearTimeout(timer);
    }
  }
}
