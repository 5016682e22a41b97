import type { TreeEntry } from '../api/api-types';
import { formatBytes } from '../format/format-bytes';
import { hrefs } from '../router/parse-route';
import { joinPath } from './directory-entries';
import { ScrollTable } from '../components/scroll-table';

interface DirectoryTableProps {
  checkpointId: string;
  path: string;
  entries: TreeEntry[];
  selectedName: string | null;
  onOpenFile(entry: TreeEntry): void;
}

/** A directory's entries: directories are links (they navigate), files are buttons (they open below). */
export function DirectoryTable({ checkpointId, path, entries, selectedName, onOpenFile }: DirectoryTableProps) {
  return (
    <ScrollTable label="Directory entries table" caption={<>Entries of {path ? `/${path}` : 'the workspace root'}</>} columns={['Name', 'Kind', 'Size', 'Mode']}>
      {entries.map((entry) => (
        <tr key={entry.name} class={entry.name === selectedName ? 'selected-row' : undefined}>
          <td>
            {entry.kind === 'directory' ? (
              <a href={hrefs.files(checkpointId, joinPath(path, entry.name))} class="mono">
                {entry.name}/
              </a>
            ) : entry.kind === 'file' ? (
              <button type="button" class="link-button mono" aria-pressed={entry.name === selectedName} onClick={() => onOpenFile(entry)}>
                {entry.name}
              </button>
            ) : (
              <span class="mono">
                {entry.name} → {entry.target ?? '?'}
              </span>
            )}
          </td>
          <td>{entry.kind}</td>
          <td>{entry.kind === 'directory' ? '—' : <span title={`${entry.size} bytes`}>{formatBytes(entry.size)}</span>}</td>
          <td class="mono">{(entry.mode & 0o7777).toString(8).padStart(4, '0')}</td>
        </tr>
      ))}
    </ScrollTable>
  );
}
