import type { ApiClient } from './api-client';
import { ApiError, toApiError } from './api-error';
import type { RuntimeEvent } from './api-types';
import { SseParser } from './sse-parser';

export type StreamState = 'connecting' | 'live' | 'retrying' | 'stopped';

export interface FollowEventsOptions {
  client: ApiClient;
  /** Comma-separated event types, or empty for all. */
  types?: string;
  runtimeId?: string;
  /** Resume after this event id (sent as Last-Event-ID, which the daemon honours over `after`). */
  afterEventId: number;
  signal: AbortSignal;
  onEvent(event: RuntimeEvent): void;
  onState?(state: StreamState, error?: ApiError): void;
}

const FIRST_RETRY_DELAY_MS = 1_000;
const LONGEST_RETRY_DELAY_MS = 30_000;

function wait(milliseconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, milliseconds);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Errors a retry cannot fix: the key is refused or the request itself is wrong. */
function isFinal(error: ApiError): boolean {
  return error.status === 401 || error.status === 403 || error.status === 400 || error.status === 404;
}

/**
 * Follows the daemon's live event stream until `signal` aborts: fetch with the key in its header,
 * a small SSE parser, and reconnection with Last-Event-ID and exponential backoff, so no event is
 * missed or seen twice across reconnects (the daemon ends streams after an hour by design).
 */
export async function followEvents(options: FollowEventsOptions): Promise<void> {
  const { client, signal } = options;
  let lastEventId = options.afterEventId;
  let retryDelayMs = FIRST_RETRY_DELAY_MS;
  while (!signal.aborted) {
    options.onState?.('connecting');
    try {
      const headers: Record<string, string> = { accept: 'text/event-stream' };
      if (lastEventId > 0) headers['last-event-id'] = String(lastEventId);
      const query = { types: options.types, runtime_id: options.runtimeId, after: lastEventId };
      const response = await client.open('/events', query, headers, signal);
      if (!response.body) throw new ApiError(0, 'network_error', 'the event stream has no body');
      options.onState?.('live');
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      const parser = new SseParser();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        for (const message of parser.push(decoder.decode(value, { stream: true }))) {
          let event: RuntimeEvent;
          try {
            event = JSON.parse(message.data) as RuntimeEvent;
          } catch {
            continue;
          }
          if (event.event_id <= lastEventId) continue;
          lastEventId = event.event_id;
          retryDelayMs = FIRST_RETRY_DELAY_MS;
          options.onEvent(event);
        }
      }
    } catch (error) {
      if (signal.aborted) break;
      const apiError = toApiError(error);
      if (isFinal(apiError)) {
        options.onState?.('stopped', apiError);
        return;
      }
      options.onState?.('retrying', apiError);
    }
    if (signal.aborted) break;
    await wait(retryDelayMs, signal);
    retryDelayMs = Math.min(retryDelayMs * 2, LONGEST_RETRY_DELAY_MS);
  }
  options.onState?.('stopped');
}
