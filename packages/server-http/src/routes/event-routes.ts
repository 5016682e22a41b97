import { EventListQuerySchema, EventListResultSchema, InvalidRequestError, type EventListQuery, type EventView, type RuntimeService } from '@runtimectl/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import '../route-config';
import { ERROR_RESPONSES } from './route-options';

/** How an event stream waits and keeps its connection alive (tests shorten both). */
export interface EventStreamOptions {
  /** Longest wait before the log is read again when this node appended nothing (other nodes' events). Default 250 ms. */
  pollIntervalMs?: number;
  /** A comment line is sent after this long without an event, so proxies keep the stream open. Default 15 s. */
  heartbeatMs?: number;
}

const STREAM_PAGE = 500;

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

async function stream(service: RuntimeService, request: FastifyRequest, reply: FastifyReply, query: EventListQuery, options: Required<EventStreamOptions>): Promise<void> {
  let cursor = resumeFrom(request, query);
  const abort = new AbortController();
  reply.raw.on('close', () => abort.abort());
  reply.hijack();
  reply.raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'x-accel-buffering': 'no',
    'x-request-id': String(request.id),
  });
  reply.raw.write(': runtimectl events\n\n');
  let lastWriteMs = Date.now();
  try {
    while (!abort.signal.aborted) {
      const page = await service.listEvents({ ...query, after: cursor, limit: STREAM_PAGE });
      for (const event of page.events) await write(reply, frame(event), abort.signal);
      if (page.events.length > 0) lastWriteMs = Date.now();
      cursor = page.events.at(-1)?.event_id ?? cursor;
      if (page.events.length === STREAM_PAGE) continue;
      // A short page holds every matching event up to last_event_id: skip what did not match.
      cursor = Math.max(cursor, page.last_event_id);
      const idleMs = Date.now() - lastWriteMs;
      if (idleMs >= options.heartbeatMs) {
        await write(reply, ': keepalive\n\n', abort.signal);
        lastWriteMs = Date.now();
      }
      await service.eventsAppended(Math.min(options.pollIntervalMs, Math.max(1, options.heartbeatMs - idleMs)), abort.signal);
    }
  } catch (error) {
    // The store failed: end the stream; the client reconnects with Last-Event-ID and loses nothing.
    request.log.warn({ err: error }, 'event stream ended: the event log could not be read');
  } finally {
    reply.raw.end();
  }
}

/** `GET /events`: a page of the event log as JSON, or, with `Accept: text/event-stream`, the log followed live (SSE). */
export const eventRoutes: FastifyPluginAsyncZod<{ service: RuntimeService; events?: EventStreamOptions | undefined }> = async (app, { service, events }) => {
  const options: Required<EventStreamOptions> = { pollIntervalMs: events?.pollIntervalMs ?? 250, heartbeatMs: events?.heartbeatMs ?? 15_000 };
  app.get(
    '/events',
    {
      schema: {
        summary: 'The event log: lifecycle changes in commit order; JSON pages, or a live Server-Sent Events stream',
        description:
          'With `Accept: text/event-stream` the answer is an SSE stream: every event after `after` (or the `Last-Event-ID` header, which wins) ' +
          'that matches `runtime_id` and `types`, then new ones as they are committed, each as `id: <event_id>`, `event: <type>`, `data: <the event as JSON>`; ' +
          'a `: keepalive` comment after 15 s without an event. A client that reconnects with the last id it received misses nothing and gets nothing twice. ' +
          'Otherwise one JSON page of at most `limit` (default 100, at most 1000) events after `after`; when fewer than `limit` came, continue after `last_event_id`, else after the last event.',
        tags: ['events'],
        operationId: 'listEvents',
        querystring: EventListQuerySchema,
        response: { 200: EventListResultSchema, ...ERROR_RESPONSES },
      },
    },
    async (request, reply) => {
      if (!wantsStream(request)) return service.listEvents({ ...request.query, after: resumeFrom(request, request.query) });
      await stream(service, request, reply, request.query, options);
      return reply;
    },
  );
};
