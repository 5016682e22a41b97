import type { RuntimeEvent } from '../store/event-log';
import type { EventListQuery, EventListResult, EventView } from '../wire/events';
import type { ServiceContext } from './service-context';

const DEFAULT_EVENT_PAGE = 100;

export function toEventView(event: RuntimeEvent): EventView {
  return { event_id: event.eventId, type: event.type, at_ms: event.atMs, runtime_id: event.runtimeId, checkpoint_id: event.checkpointId, data: event.data };
}

/** A page of the event log; `last_event_id` is read first, so it never runs ahead of what a later page can show. */
export async function listEvents(ctx: ServiceContext, query: EventListQuery): Promise<EventListResult> {
  const lastEventId = await ctx.store.lastEventId();
  const events = await ctx.store.listEvents({
    afterEventId: query.after ?? 0,
    limit: query.limit ?? DEFAULT_EVENT_PAGE,
    ...(query.runtime_id === undefined ? {} : { runtimeId: query.runtime_id }),
    ...(query.types === undefined ? {} : { types: query.types }),
  });
  return { events: events.map(toEventView), last_event_id: Math.max(lastEventId, events.at(-1)?.eventId ?? 0) };
}
