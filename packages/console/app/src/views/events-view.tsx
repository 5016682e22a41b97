import { useEffect, useState } from 'preact/hooks';
import { useApiClient } from '../api/api-context';
import { ErrorAlert } from '../components/error-alert';
import { usePageTitle } from '../components/page-title';
import { normalizeTypes } from '../events/event-feed';
import { EventItem } from '../events/event-item';
import { useEventFeed } from '../events/use-event-feed';


/** Typing settles for this long before the feed restarts with the new filters. */
const FILTER_DELAY_MS = 500;

/** The event log, live: the last 100 events, then each one as it commits, newest on top. */
export function EventsView() {
  usePageTitle('Events');
  const client = useApiClient();
  const [typesText, setTypesText] = useState('');
  const [runtimeText, setRuntimeText] = useState('');
  const [filters, setFilters] = useState({ types: '', runtimeId: '' });
  const [paused, setPaused] = useState(false);
  const { feed, error, streamState, waiting } = useEventFeed(client, filters.types, filters.runtimeId, paused);

  const apply = () => setFilters({ types: normalizeTypes(typesText), runtimeId: runtimeText.trim() });
  useEffect(() => {
    const timer = setTimeout(apply, FILTER_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typesText, runtimeText]);

  return (
    <>
      <h1>Events</h1>
      <form
        class="filter-bar"
        aria-label="Filter events"
        onSubmit={(event) => {
          event.preventDefault();
          apply();
        }}
      >
        <div class="field field-wide">
          <label for="event-types">Event types</label>
          <input
            id="event-types"
            type="text"
            value={typesText}
            placeholder="runtime.paused,checkpoint.created"
            aria-describedby="event-types-hint"
            onInput={(event) => setTypesText(event.currentTarget.value)}
          />
          <span id="event-types-hint" class="hint">
            Comma-separated; empty for all.
          </span>
        </div>
        <div class="field field-wide">
          <label for="event-runtime">Runtime</label>
          <input id="event-runtime" type="text" value={runtimeText} onInput={(event) => setRuntimeText(event.currentTarget.value)} />
        </div>
        <div class="field field-button">
          <button type="button" aria-pressed={paused} onClick={() => setPaused(!paused)}>
            {paused ? 'Resume feed' : 'Pause feed'}
          </button>
        </div>
      </form>
      <ErrorAlert error={error} context="Events" />
      <p class="table-count">
        {feed.length} {feed.length === 1 ? 'event' : 'events'} shown · stream {streamState}
        {paused ? ` · paused, ${waiting} waiting` : ''}
      </p>
      {/* The live region wraps the list: ARIA allows no `log` role on an <ol> itself. */}
      <div role="log" aria-label="Live events">
        <ol class="event-feed">
          {feed.map((event) => (
            <EventItem key={event.event_id} event={event} />
          ))}
        </ol>
      </div>
    </>
  );
}
