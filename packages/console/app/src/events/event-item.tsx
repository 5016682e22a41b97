import type { RuntimeEvent } from '../api/api-types';
import { formatTime } from '../format/format-time';
import { shortId } from '../format/short-id';
import { hrefs } from '../router/parse-route';
import { summarizeEventData } from './event-feed';

/** One line of the feed: time, type, runtime, checkpoint and the data in brief. */
export function EventItem({ event }: { event: RuntimeEvent }) {
  return (
    <li class="event-item" data-event-id={event.event_id}>
      <time dateTime={new Date(event.at_ms).toISOString()}>{formatTime(event.at_ms)}</time>
      <span class="event-type">{event.type}</span>
      <span class="event-runtime">
        {event.runtime_id ? (
          <a href={hrefs.lineage(event.runtime_id)} class="mono">
            {event.runtime_id}
          </a>
        ) : (
          '—'
        )}
      </span>
      <span class="event-checkpoint mono" title={event.checkpoint_id ?? undefined}>
        {event.checkpoint_id ? shortId(event.checkpoint_id) : '—'}
      </span>
      <span class="event-data mono">{summarizeEventData(event.data)}</span>
    </li>
  );
}
