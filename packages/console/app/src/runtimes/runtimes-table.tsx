import type { RuntimeRecord } from '../api/api-types';
import { RuntimeStatus } from '../components/runtime-status';
import { formatTime } from '../format/format-time';
import { hrefs } from '../router/parse-route';
import { ScrollTable } from '../components/scroll-table';

/** One row per runtime; the id links to its lineage. */
export function RuntimesTable({ runtimes }: { runtimes: RuntimeRecord[] }) {
  return (
    <ScrollTable label="Runtimes table" caption="Runtimes" columns={['Runtime', 'Status', 'Provider', 'Conversation', 'Node', 'Updated']}>
      {runtimes.map((runtime) => (
        <tr key={runtime.runtime_id} data-runtime-id={runtime.runtime_id}>
          <td>
            <a href={hrefs.lineage(runtime.runtime_id)} class="mono">
              {runtime.runtime_id}
            </a>
          </td>
          <td>
            <RuntimeStatus status={runtime.status} />
          </td>
          <td>{runtime.provider ?? '—'}</td>
          <td class="mono">{runtime.conversation_id}</td>
          <td class="mono">{runtime.home_node_id ?? '—'}</td>
          <td>
            <time dateTime={new Date(runtime.updated_at_ms).toISOString()}>{formatTime(runtime.updated_at_ms)}</time>
          </td>
        </tr>
      ))}
    </ScrollTable>
  );
}
