import { useApiClient } from '../api/api-context';
import type { DiffEntry } from '../api/api-types';
import { type DiffTarget, readFileBytes } from '../api/runtimectl-api';
import { ErrorAlert } from '../components/error-alert';
import { useApiCall } from '../components/use-api-call';
import { decodeFileText, type FileText, isTooLargeToShow } from './file-kind';
import { SideBySideDiff } from './side-by-side-diff';

interface FileDiffProps {
  entry: DiffEntry;
  fromCheckpointId: string;
  to: DiffTarget;
}

const EMPTY: FileText = { kind: 'text', text: '' };

/** One changed path: fetched (unless sizes already say it is too large), then shown side by side, or described. */
export function FileDiff({ entry, fromCheckpointId, to }: FileDiffProps) {
  const client = useApiClient();
  const oldIsFile = entry.old_kind === 'file';
  const newIsFile = entry.new_kind === 'file';
  const tooLarge = isTooLargeToShow(oldIsFile ? entry.old_size : null, newIsFile ? entry.new_size : null);
  const fetchable = (oldIsFile || newIsFile) && !tooLarge;

  const sides = useApiCall(
    async (signal) => {
      if (!fetchable) return null;
      const [oldSide, newSide] = await Promise.all([
        oldIsFile ? readFileBytes(client, { checkpointId: fromCheckpointId }, entry.path, signal).then(decodeFileText) : EMPTY,
        newIsFile ? readFileBytes(client, to, entry.path, signal).then(decodeFileText) : EMPTY,
      ]);
      return { oldSide, newSide };
    },
    [client, entry.path, fromCheckpointId, JSON.stringify(to), fetchable],
  );

  let body;
  if (tooLarge) {
    body = <p>Too large to show inline ({Math.max(entry.old_size ?? 0, entry.new_size ?? 0)} bytes)</p>;
  } else if (!fetchable) {
    const describe = (kind: string | null, target: string | null | undefined) => (kind === 'symlink' ? `symlink → ${target ?? '?'}` : (kind ?? 'absent'));
    body = (
      <p>
        Not a file on either side: {describe(entry.old_kind, entry.old_target)} → {describe(entry.new_kind, entry.new_target)}
        {entry.old_mode !== entry.new_mode && entry.old_mode != null && entry.new_mode != null
          ? ` (mode ${entry.old_mode.toString(8)} → ${entry.new_mode.toString(8)})`
          : ''}
      </p>
    );
  } else if (sides.error) {
    body = <ErrorAlert error={sides.error} context={`Reading ${entry.path}`} />;
  } else if (!sides.data) {
    body = <p>Loading {entry.path}…</p>;
  } else if (sides.data.oldSide.kind === 'binary' || sides.data.newSide.kind === 'binary') {
    body = (
      <p>
        Binary file: {entry.old_size ?? 0} → {entry.new_size ?? 0} bytes
      </p>
    );
  } else {
    body = <SideBySideDiff path={entry.path} oldText={sides.data.oldSide.text} newText={sides.data.newSide.kind === 'text' ? sides.data.newSide.text : ''} />;
  }

  return (
    <section class="file-diff" role="region" aria-label={`Diff of ${entry.path}`}>
      <h2>
        <code>{entry.path}</code> <span class="change-label">{entry.change.replace('_', ' ')}</span>
      </h2>
      {body}
    </section>
  );
}
