import * as wire from '@runtimectl/core';
import { createParser } from 'eventsource-parser';
import { RuntimectlApiError } from './api-errors';
import type { HttpTransport } from './http-transport';

/** How long `followEvents` waits before it reconnects after the stream broke. */
const RECONNECT_DELAY_MS = 1_000;

export interface FollowEventsOptions {
  /** Stops the stream (the iteration then ends). */
  signal?: AbortSignal;
  /** Called when the stream broke and is about to be reopened (after the last event received). */
  onReconnect?: (error: unknown) => void;
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
async function* eventsOf(response: Response): AsyncGenerator<wire.EventView> {
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
 * nothing is missed and nothing comes twice. Errors the daemon answers (401, 400) end it.
 */
export async function* followEvents(http: HttpTransport, params: EventQueryParams, options: FollowEventsOptions = {}): AsyncGenerator<wire.EventView> {
  const signal = options.signal ?? new AbortController().signal;
  const { after, limit: _pageSize, ...filters } = params;
  let lastEventId = after;
  while (!signal.aborted) {
    try {
      const response = await http.openStream('/api/v1/events', filters, lastEventId, signal);
      for await (const event of eventsOf(response)) {
        lastEventId = event.event_id;
        yield event;
      }
    } catch (error) {
      if (signal.aborted) return;
      if (error instanceof RuntimectlApiError) throw error;
      options.onReconnect?.(error);
    }
    if (signal.aborted) return;
    await new Promise((resolve) => setTimeout(resolve, RECONNECT_DELAY_MS));
  }
}
