import { useEffect, useState } from 'preact/hooks';
import { useApiClient } from '../api/api-context';
import { type ApiError, toApiError } from '../api/api-error';
import type { DiffEntry, DiffSummary } from '../api/api-types';
import { diffPage } from '../api/runtimectl-api';
import { ErrorAlert } from '../components/error-alert';
import { usePageTitle } from '../components/page-title';
import { ChangedFilesTable } from '../diff/changed-files-table';
import { DiffForm } from '../diff/diff-form';
import { FileDiff } from '../diff/file-diff';
import { summarizeDiff } from '../diff/summarize-diff';
import { parseDiffTarget } from '../router/parse-route';

interface DiffResult {
  entries: DiffEntry[];
  summary: DiffSummary;
  nextCursor: string | null;
}

/** Compares two checkpoints (or a checkpoint and a live runtime) by their content manifests. */
export function DiffView({ from, to }: { from: string; to: string }) {
  usePageTitle('Diff');
  const client = useApiClient();
  const target = parseDiffTarget(to);
  const [result, setResult] = useState<DiffResult | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [loading, setLoading] = useState(false);
  const [selected, setSelected] = useState<DiffEntry | null>(null);

  async function load(cursor: string | undefined) {
    if (!from || !target) return;
    setLoading(true);
    setError(null);
    try {
      const page = await diffPage(client, from, target, cursor);
      setResult((previous) => ({
        entries: cursor && previous ? [...previous.entries, ...page.entries] : page.entries,
        summary: page.summary,
        nextCursor: page.next_cursor,
      }));
    } catch (failure) {
      setError(toApiError(failure));
    } finally {
      setLoading(false);
    }
  }

  useEffect(() => {
    void load(undefined);
  }, [from, to]);

  return (
    <>
      <h1>Diff</h1>
      <DiffForm from={from} to={to} />
      <ErrorAlert error={error} context="Compare" />
      {loading && !result ? <p>Comparing…</p> : null}
      {result ? (
        <>
          <p class="diff-summary">{summarizeDiff(result.summary)}</p>
          {result.entries.length === 0 ? <p>No differences.</p> : <ChangedFilesTable entries={result.entries} selectedPath={selected?.path ?? null} onSelect={setSelected} />}
          {result.nextCursor ? (
            <button type="button" disabled={loading} onClick={() => void load(result.nextCursor ?? undefined)}>
              Load more
            </button>
          ) : null}
          {selected && target ? <FileDiff key={selected.path} entry={selected} fromCheckpointId={from} to={target} /> : null}
        </>
      ) : null}
    </>
  );
}
