import type { DiffEntry } from '../api/api-types';
import { formatBytes } from '../format/format-bytes';
import { ScrollTable } from '../components/scroll-table';

interface ChangedFilesTableProps {
  entries: DiffEntry[];
  selectedPath: string | null;
  onSelect(entry: DiffEntry): void;
}

const CHANGE_TEXT: Record<DiffEntry['change'], string> = {
  added: '+ added',
  removed: '− removed',
  modified: '~ modified',
  mode_changed: 'mode changed',
  type_changed: 'type changed',
};

function Size({ bytes }: { bytes: number | null }) {
  return <span title={bytes === null ? undefined : `${bytes} bytes`}>{formatBytes(bytes)}</span>;
}

/** The changed paths; each path is a button that opens its diff below. */
export function ChangedFilesTable({ entries, selectedPath, onSelect }: ChangedFilesTableProps) {
  return (
    <ScrollTable label="Changed files table" caption="Changed files" columns={['Path', 'Change', 'Old size', 'New size']}>
      {entries.map((entry) => (
        <tr key={entry.path} class={entry.path === selectedPath ? 'selected-row' : undefined}>
          <td>
            <button type="button" class="link-button mono" aria-pressed={entry.path === selectedPath} onClick={() => onSelect(entry)}>
              {entry.path}
            </button>
          </td>
          <td class={`change change-${entry.change}`}>{CHANGE_TEXT[entry.change]}</td>
          <td>
            <Size bytes={entry.old_size} />
          </td>
          <td>
            <Size bytes={entry.new_size} />
          </td>
        </tr>
      ))}
    </ScrollTable>
  );
}
