import { useMemo, useState } from 'preact/hooks';
import { useApiClient } from '../api/api-context';
import { ErrorAlert } from '../components/error-alert';
import { usePageTitle } from '../components/page-title';
import { distinctValues, filterRuntimes, NO_FILTERS } from '../runtimes/filter-runtimes';
import { RuntimeFilterBar } from '../runtimes/runtime-filter-bar';
import { RuntimesTable } from '../runtimes/runtimes-table';
import { useLiveRuntimes } from '../runtimes/use-live-runtimes';

const STREAM_STATE_TEXT = { connecting: 'connecting to live updates…', live: 'live', retrying: 'reconnecting…', stopped: 'live updates stopped' };

/** Every runtime, searchable and filterable, with statuses kept live from the event stream. */
export function RuntimesView() {
  usePageTitle('Runtimes');
  const client = useApiClient();
  const { runtimes, error, streamState } = useLiveRuntimes(client);
  const [filters, setFilters] = useState(NO_FILTERS);

  const options = useMemo(
    () => ({
      statuses: distinctValues(runtimes ?? [], (runtime) => runtime.status),
      providers: distinctValues(runtimes ?? [], (runtime) => runtime.provider),
      nodes: distinctValues(runtimes ?? [], (runtime) => runtime.home_node_id),
    }),
    [runtimes],
  );
  const shown = useMemo(() => filterRuntimes(runtimes ?? [], filters), [runtimes, filters]);

  return (
    <>
      <h1>Runtimes</h1>
      <RuntimeFilterBar filters={filters} options={options} onChange={setFilters} />
      <ErrorAlert error={error} context="Loading runtimes" />
      {runtimes === null && !error ? <p>Loading runtimes…</p> : null}
      {runtimes !== null ? (
        <>
          <p class="table-count">
            <span class="runtime-count" aria-live="polite">
              {shown.length} {shown.length === 1 ? 'runtime' : 'runtimes'}
            </span>
            {shown.length !== runtimes.length ? <span> (of {runtimes.length})</span> : null}
            <span class="stream-state"> · {STREAM_STATE_TEXT[streamState]}</span>
          </p>
          <RuntimesTable runtimes={shown} />
        </>
      ) : null}
    </>
  );
}
