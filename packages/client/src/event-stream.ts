import { setTimeout as sleep } from 'node:timers/promises';
import * as wire from '@runtimectl/core';
import { createParser } from 'eventsource-parser';
import { RuntimectlApiError, TooManyEventStreamsError } from './api-errors';
import type { DaemonResponse } from './daemon-fetch';
import type { HttpTransport } from './http-transport';
import { reconnectDelayMs } from './reconnect-delay';

export interface FollowEventsOptions {
  /** Stops the stream (the iteration then ends, also while it waits to reconnect). */
  signal?: AbortSignal;
  /**
   * Called when the stream broke, or the daemon refused it for having too many streams open
   * (TooManyEventStreamsError), and is about to be reopened after `delayMs` (from the last event received).
   */
  onReconnect?: (error: unknown, delayMs: number) => void;
}

/** The query string of an event query (`types` comma-separated), checked by `check` against the route's schema. */
export function eventQueryParams(query: wire.EventListQuery, check: (schema: typeof wire.EventListQuerySchema, value: unknown) => unknown): EventQueryParams {
  const params: EventQueryParams = {
    ...(query.after === undefined ? {} : { after: query.after }),
    ...(query.runtime_id === undefined ? {} : { runtime_id: query.runtime_id }),
    ...(query.types === undefined ? {} : { types: query.types.join(',') }),
    ...(query.limit === undefined ? {} : { limit: query.limit }),
  };
  check(wire.EventListQuerySchema, params);
  return params;
}

export type EventQueryParams = {
  after?: number;
  runtime_id?: string;
  types?: string;
  limit?: number;
};

/** The events of one SSE response, as they arrive. */
async function* eventsOf(response: DaemonResponse): AsyncGenerator<wire.EventView> {
  const arrived: wire.EventView[] = [];
  const parser = createParser({
    onEvent: (message) => {
      arrived.push(wire.EventViewSchema.parse(JSON.parse(message.data)));
    },
  });
  const decoder = new TextDecoder();
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    parser.feed(decoder.decode(chunk, { stream: true }));
    yield* arrived.splice(0);
  }
}

/**
 * Follows the event log over SSE: every event after `query.after`, then new ones, for as long as
 * `signal` allows. A broken stream is reopened with the last id received (`Last-Event-ID`), so
 * nothing is missed and nothing comes twice. A stream refused because the daemon has as many open
 * as it allows (429 `too_many_event_streams`) is tried again after its `Retry-After`, backing off
 * while the refusals go on (see reconnectDelayMs). Other errors the daemon answers (401, 400) end it.
 */
export async function* followEvents(http: HttpTransport, params: EventQueryParams, options: FollowEventsOptions = {}): AsyncGenerator<wire.EventView> {
  const signal = options.signal ?? new AbortController().signal;
  const { after, limit: _pageSize, ...filters } = params;
  let lastEventId = after;
  let refusalsInARow = 0;
  while (!signal.aborted) {
    let reason: unknown;
    try {
      const response = await http.openStream('/api/v1/events', filters, lastEventId, signal);
      refusalsInARow = 0;
      for await (const event of eventsOf(response)) {
        lastEventId = event.event_id;
        yield event;
      }
    } catch (error) {
      if (signal.aborted) return;
      if (error instanceof TooManyEventStreamsError) refusalsInARow += 1;
      else if (error instanceof RuntimectlApiError) throw error;
      reason = error;
    }
    if (signal.aborted) return;
    const delayMs = reconnectDelayMs(reason, refusalsInARow);
    if (reason !== undefined) options.onReconnect?.(reason, delayMs);
    // An abort ends the wait at once (sleep rejects; the loop then sees the signal).
    await sleep(delayMs, undefined, { signal }).catch(() => undefined);
  }
}
