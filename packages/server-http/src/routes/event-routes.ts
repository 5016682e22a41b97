import { EventListQuerySchema, EventListResultSchema, InvalidRequestError, type EventListQuery, type EventView, type RuntimeService } from '@runtimectl/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { EventFeed, FEED_FAILED, FEED_PAGE } from '../events/event-feed';
import { EventStreamSlots, type EventStreamRefusal } from '../events/event-stream-slots';
import { closeAfterAnswer } from '../http-errors/answer-and-close';
import { errorReply } from '../http-errors/error-reply';
import { documented } from '../openapi/openapi-metadata';
import '../route-config';
import { inScope } from '../auth/runtime-scope-hook';
import { ERROR_RESPONSES, READ_ROUTE } from './route-options';

/** How event streams wait, keep their connection alive, and are bounded (the daemon's `[http]` settings; tests shorten them). */
export interface EventStreamOptions {
  /** Longest wait before the log is read again when this node appended nothing (other nodes' events). Default 250 ms. */
  pollIntervalMs?: number;
  /** A comment line is sent after this long without an event, so proxies keep the stream open. Default 15 s. */
  heartbeatMs?: number;
  /** Streams open at once at most; more are refused with 429 `too_many_event_streams`. Default 128. */
  maxStreams?: number;
  /** Streams open at once from one source address at most; more are refused likewise. Default 32. */
  maxStreamsPerAddress?: number;
  /** A stream is ended after this long (its client reconnects with Last-Event-ID, missing nothing). Default 1 h. */
  maxLifetimeMs?: number;
  /** A stream whose reader has not taken a write within this long is closed (the connection destroyed). Default 30 s. */
  writeTimeoutMs?: number;
}

/** The defaults of EventStreamOptions. */
export const EVENT_STREAM_DEFAULTS: Readonly<Required<EventStreamOptions>> = Object.freeze({
  pollIntervalMs: 250,
  heartbeatMs: 15_000,
  maxStreams: 128,
  maxStreamsPerAddress: 32,
  maxLifetimeMs: 3_600_000,
  writeTimeoutMs: 30_000,
});

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

/**
 * Seconds a refused stream is told to wait (`Retry-After`): a place frees only when another
 * stream ends, so retrying at once would only be refused again; followers back off from here.
 */
const REFUSED_STREAM_RETRY_AFTER_S = 1;

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

/**
 * Writes `text`; resolves once the socket took it (backpressure) or closed. A reader that has not
 * taken it within `timeoutMs` has stopped reading: its connection is destroyed (which aborts the stream).
 */
function write(reply: FastifyReply, text: string, abort: AbortSignal, timeoutMs: number): Promise<void> {
  if (abort.aborted || reply.raw.write(text)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      reply.raw.off('drain', done);
      abort.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(() => {
      reply.raw.destroy();
      done();
    }, timeoutMs);
    reply.raw.once('drain', done);
    abort.addEventListener('abort', done, { once: true });
  });
}

/** Ends the stream's answer; a reader that does not take its last bytes within `timeoutMs` loses the connection. */
function end(reply: FastifyReply, timeoutMs: number): void {
  const socket = reply.raw.socket;
  reply.raw.end();
  if (!socket || socket.destroyed) return;
  const timer = setTimeout(() => socket.destroy(), timeoutMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}

function refuseStream(request: FastifyRequest, reply: FastifyReply, refusal: EventStreamRefusal): FastifyReply {
  const { status, body, headers } = errorReply(
    'too_many_event_streams',
    refusal.scope === 'address'
      ? `${refusal.limit} event streams are already open from this address (runtimed: http.max_event_streams_per_address)`
      : `${refusal.limit} event streams are already open (runtimed: http.max_event_streams)`,
    { limit: refusal.limit, scope: refusal.scope },
    { 'retry-after': String(REFUSED_STREAM_RETRY_AFTER_S) },
  );
  // The refused caller keeps no connection either.
  closeAfterAnswer(request, reply);
  return reply.code(status).headers(headers).send(body);
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
  slots: EventStreamSlots;
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
  const lifetime = setTimeout(() => abort.abort(), options.maxLifetimeMs);
  lifetime.unref();
  const writeText = (text: string) => write(reply, text, abort.signal, options.writeTimeoutMs);
  reply.hijack();
  reply.raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'x-accel-buffering': 'no',
    'x-request-id': String(request.id),
    // A stream ends only when its connection may go too: nothing can follow it on the connection.
    connection: 'close',
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
  // A key revoked or expired while its stream is open ends the stream within a heartbeat.
  let admittedAtMs = Date.now();
  const stillAdmitted = async () => {
    if (!request.stillAdmitted || Date.now() - admittedAtMs < options.heartbeatMs) return true;
    admittedAtMs = Date.now();
    return request.stillAdmitted();
  };
  try {
    for (;;) {
      const page = await service.listEvents({ ...query, after: cursor, limit: FEED_PAGE });
      for (const event of await inScope(request.runtimeScope, page.events, (item) => item.runtime_id)) await writeText(frame(event));
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
      if (!(await stillAdmitted())) {
        request.log.info({ key: request.runtimectlKey?.name }, 'event stream ended: its key was revoked or has expired');
        return;
      }
      const batch = queue;
      queue = [];
      for (const event of batch) {
        if (event.event_id <= cursor) continue;
        cursor = event.event_id;
        if (!matches(event) || (await inScope(request.runtimeScope, [event], (item) => item.runtime_id)).length === 0) continue;
        await writeText(frame(event));
        lastWriteMs = Date.now();
      }
      if (queue.length > 0) continue;
      const idleMs = Date.now() - lastWriteMs;
      if (idleMs >= options.heartbeatMs) {
        await writeText(': keepalive\n\n');
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
    clearTimeout(lifetime);
    detach();
    context.open.delete(abort);
    end(reply, options.writeTimeoutMs);
  }
}

/** The options given, without the keys left undefined (which would hide the defaults). */
function definedOf(events: EventStreamOptions | undefined): EventStreamOptions {
  return Object.fromEntries(Object.entries(events ?? {}).filter(([, value]) => value !== undefined));
}

/** `GET /events`: a page of the event log as JSON, or, with `Accept: text/event-stream`, the log followed live (SSE). */
export const eventRoutes: FastifyPluginAsyncZod<{ service: RuntimeService; events?: EventStreamOptions | undefined }> = async (app, { service, events }) => {
  const options: Required<EventStreamOptions> = { ...EVENT_STREAM_DEFAULTS, ...definedOf(events) };
  const context: StreamContext = {
    service,
    feed: new EventFeed(service, options.pollIntervalMs),
    options,
    open: new Set(),
    slots: new EventStreamSlots(options.maxStreams, options.maxStreamsPerAddress),
  };
  // Streams never end by themselves: a closing server ends them, or it would wait for them for ever.
  app.addHook('preClose', async () => {
    for (const abort of context.open) abort.abort();
  });
  app.get(
    '/events',
    {
      config: READ_ROUTE,
      schema: {
        summary: 'The event log: lifecycle changes in commit order; JSON pages, or a live Server-Sent Events stream',
        description:
          'With `Accept: text/event-stream` the answer is an SSE stream: every event after `after` (or the `Last-Event-ID` header, which wins) ' +
          'that matches `runtime_id` and `types`, then new ones as they are committed, each as `id: <event_id>`, `event: <type>`, `data: <the event as JSON>`; ' +
          'a `: keepalive` comment after 15 s without an event. A client that reconnects with the last id it received misses nothing and gets nothing twice. ' +
          'Streams are capped in all and per source address (429 `too_many_event_streams` beyond, with `Retry-After: 1`), end after an hour, and a reader that stops reading is disconnected. ' +
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
      if (!wantsStream(request)) {
        const page = await service.listEvents({ ...request.query, after: resumeFrom(request, request.query) });
        return { ...page, events: await inScope(request.runtimeScope, page.events, (event) => event.runtime_id) };
      }
      const slot = context.slots.take(request.raw.socket?.remoteAddress ?? '');
      if (!('release' in slot)) return refuseStream(request, reply, slot);
      try {
        await stream(context, request, reply, request.query);
      } finally {
        slot.release();
      }
      return reply;
    },
  );
};
