import { EventListQuerySchema, EventListResultSchema, InvalidRequestError, type EventListQuery, type EventView, type RuntimeService } from '@runtimectl/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { EventFeed, FEED_FAILED, FEED_PAGE } from '../events/event-feed';
import { z } from 'zod';
import { documented } from '../openapi/openapi-metadata';
import '../route-config';
import { ERROR_RESPONSES } from './route-options';

/** How an event stream waits and keeps its connection alive (tests shorten both). */
export interface EventStreamOptions {
  /** Longest wait before the log is read again when this node appended nothing (other nodes' events). Default 250 ms. */
  pollIntervalMs?: number;
  /** A comment line is sent after this long without an event, so proxies keep the stream open. Default 15 s. */
  heartbeatMs?: number;
}

/** `Last-Event-ID` for the OpenAPI document; the handler checks it (resumeFrom), every other header passes. */
const EventStreamHeadersSchema = z.looseObject({
  'last-event-id': documented(z.string(), {
    description: 'SSE only: resume after this event id (what an EventSource sends when it reconnects); wins over `after`',
  }).optional(),
});

const EventStreamFramesSchema = documented(z.string(), {
  description:
    'Server-Sent Events: per event `id: <event_id>`, `event: <type>`, `data: <the event as JSON>` and a blank line; `: keepalive` comments while idle',
});

/** Events a stream may have queued for a reader that does not keep up; beyond, its stream ends (it resumes with Last-Event-ID). */
const MAX_QUEUED_EVENTS = 10_000;

function frame(event: EventView): string {
  return `id: ${event.event_id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** `Last-Event-ID` (what an EventSource sends when it reconnects) overrides `after`. */
function resumeFrom(request: FastifyRequest, query: EventListQuery): number {
  const header = request.headers['last-event-id'];
  if (header === undefined) return query.after ?? 0;
  const value = Array.isArray(header) ? header[0] : header;
  if (!/^\d{1,15}$/.test(value ?? '')) throw new InvalidRequestError('Last-Event-ID must be the id of an event (a non-negative integer)', { header: 'last-event-id' });
  return Number(value);
}

function wantsStream(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').split(',').some((type) => type.trim().split(';')[0] === 'text/event-stream');
}

/** Writes `text`; resolves once the socket took it (backpressure) or closed. */
function write(reply: FastifyReply, text: string, abort: AbortSignal): Promise<void> {
  if (abort.aborted || reply.raw.write(text)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      reply.raw.off('drain', done);
      abort.removeEventListener('abort', done);
      resolve();
    };
    reply.raw.once('drain', done);
    abort.addEventListener('abort', done, { once: true });
  });
}

/** Resolves after `ms`, or earlier when `wake` is called or `abort` fires. */
function sleep(ms: number, abort: AbortSignal, onWake: (wake: () => void) => void): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      abort.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    abort.addEventListener('abort', done, { once: true });
    onWake(done);
  });
}

interface StreamContext {
  service: RuntimeService;
  feed: EventFeed;
  options: Required<EventStreamOptions>;
  /** Every open stream's abort: the server ends them when it closes. */
  open: Set<AbortController>;
}

/**
 * One SSE stream: attaches to the server's feed first (buffering what it hands over), then
 * catches up from the store after the resume point until a short page, then writes the feed's
 * events above what it wrote. The catch-up's last read follows the attach, so between them
 * every event is covered; ids at or below what was written are skipped, so none comes twice.
 */
async function stream(context: StreamContext, request: FastifyRequest, reply: FastifyReply, query: EventListQuery): Promise<void> {
  const { service, feed, options } = context;
  let cursor = resumeFrom(request, query);
  const abort = new AbortController();
  context.open.add(abort);
  reply.raw.on('close', () => abort.abort());
  reply.hijack();
  reply.raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'x-accel-buffering': 'no',
    'x-request-id': String(request.id),
  });
  reply.raw.write(': runtimectl events\n\n');
  let queue: EventView[] = [];
  let ended = false;
  let wake: (() => void) | undefined;
  const detach = await feed.attach((events) => {
    if (events === FEED_FAILED || queue.length + events.length > MAX_QUEUED_EVENTS) ended = true;
    else queue.push(...events);
    wake?.();
  });
  const matches = (event: EventView) =>
    (query.runtime_id === undefined || event.runtime_id === query.runtime_id) && (query.types === undefined || query.types.includes(event.type));
  let lastWriteMs = Date.now();
  try {
    for (;;) {
      const page = await service.listEvents({ ...query, after: cursor, limit: FEED_PAGE });
      for (const event of page.events) await write(reply, frame(event), abort.signal);
      if (page.events.length > 0) lastWriteMs = Date.now();
      cursor = page.events.at(-1)?.event_id ?? cursor;
      if (abort.signal.aborted) return;
      if (page.events.length < FEED_PAGE) {
        // A short page holds every matching event up to last_event_id: skip what did not match.
        cursor = Math.max(cursor, page.last_event_id);
        break;
      }
    }
    while (!abort.signal.aborted && !ended) {
      const batch = queue;
      queue = [];
      for (const event of batch) {
        if (event.event_id <= cursor) continue;
        cursor = event.event_id;
        if (!matches(event)) continue;
        await write(reply, frame(event), abort.signal);
        lastWriteMs = Date.now();
      }
      if (queue.length > 0) continue;
      const idleMs = Date.now() - lastWriteMs;
      if (idleMs >= options.heartbeatMs) {
        await write(reply, ': keepalive\n\n', abort.signal);
        lastWriteMs = Date.now();
        continue;
      }
      await sleep(options.heartbeatMs - idleMs, abort.signal, (done) => (wake = done));
      wake = undefined;
    }
  } catch (error) {
    // The store failed: end the stream; the client reconnects with Last-Event-ID and loses nothing.
    request.log.warn({ err: error }, 'event stream ended: the event log could not be read');
  } finally {
    detach();
    context.open.delete(abort);
    reply.raw.end();
  }
}

/** `GET /events`: a page of the event log as JSON, or, with `Accept: text/event-stream`, the log followed live (SSE). */
export const eventRoutes: FastifyPluginAsyncZod<{ service: RuntimeService; events?: EventStreamOptions | undefined }> = async (app, { service, events }) => {
  const options: Required<EventStreamOptions> = { pollIntervalMs: events?.pollIntervalMs ?? 250, heartbeatMs: events?.heartbeatMs ?? 15_000 };
  const context: StreamContext = { service, feed: new EventFeed(service, options.pollIntervalMs), options, open: new Set() };
  // Streams never end by themselves: a closing server ends them, or it would wait for them for ever.
  app.addHook('preClose', async () => {
    for (const abort of context.open) abort.abort();
  });
  app.get(
    '/events',
    {
      schema: {
        summary: 'The event log: lifecycle changes in commit order; JSON pages, or a live Server-Sent Events stream',
        description:
          'With `Accept: text/event-stream` the answer is an SSE stream: every event after `after` (or the `Last-Event-ID` header, which wins) ' +
          'that matches `runtime_id` and `types`, then new ones as they are committed, each as `id: <event_id>`, `event: <type>`, `data: <the event as JSON>`; ' +
          'a `: keepalive` comment after 15 s without an event. A client that reconnects with the last id it received misses nothing and gets nothing twice. ' +
          'Otherwise one JSON page of at most `limit` (default 100, at most 500, as every list) events after `after`; when fewer than `limit` came, continue after `last_event_id`, else after the last event.',
        tags: ['events'],
        operationId: 'listEvents',
        querystring: EventListQuerySchema,
        headers: EventStreamHeadersSchema,
        response: {
          200: {
            description: 'A JSON page of events, or with `Accept: text/event-stream` the live stream',
            content: { 'application/json': { schema: EventListResultSchema }, 'text/event-stream': { schema: EventStreamFramesSchema } },
          },
          ...ERROR_RESPONSES,
        },
      },
    },
    async (request, reply) => {
      if (!wantsStream(request)) return service.listEvents({ ...request.query, after: resumeFrom(request, request.query) });
      await stream(context, request, reply, request.query);
      return reply;
    },
  );
};
