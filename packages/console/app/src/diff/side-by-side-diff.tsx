import { useMemo, useState } from 'preact/hooks';
import { highlightLines } from './highlight-code';
import { type DiffRow, expandCollapsed, pairDiffLines } from './pair-diff-lines';

/** Rows drawn at first; a huge all-new file would otherwise build tens of thousands of rows at once. */
const FIRST_ROWS = 3_000;

interface SideBySideDiffProps {
  path: string;
  oldText: string;
  newText: string;
}

function Code({ html }: { html: string | undefined }) {
  // highlight.js escapes the file's text; the only markup is its own spans.
  return <code dangerouslySetInnerHTML={{ __html: html ?? '' }} />;
}

function Side({ line, lines, marker }: { line: number | null; lines: string[]; marker: '-' | '+' | ' ' }) {
  if (line === null) {
    return (
      <>
        <td class="line-number" />
        <td class="marker" />
        <td class="code empty-side" />
      </>
    );
  }
  const changed = marker !== ' ';
  return (
    <>
      <td class="line-number">{line}</td>
      <td class={`marker${changed ? (marker === '-' ? ' marker-removed' : ' marker-added') : ''}`}>{marker === ' ' ? '' : marker}</td>
      <td class={`code${changed ? (marker === '-' ? ' code-removed' : ' code-added') : ''}`}>
        <Code html={lines[line - 1]} />
      </td>
    </>
  );
}

/** Old and new text in two columns with line numbers; changed lines marked -/+ and coloured, long unchanged runs folded. */
export function SideBySideDiff({ path, oldText, newText }: SideBySideDiffProps) {
  const oldLines = useMemo(() => highlightLines(oldText, path), [oldText, path]);
  const newLines = useMemo(() => highlightLines(newText, path), [newText, path]);
  const initialRows = useMemo(() => pairDiffLines(oldText, newText), [oldText, newText]);
  const [rows, setRows] = useState<DiffRow[]>(initialRows);
  const [rowLimit, setRowLimit] = useState(FIRST_ROWS);
  const shown = rows.slice(0, rowLimit);

  return (
    <div class="table-scroll" tabindex={0} role="group" aria-label={`Side-by-side lines of ${path}`}>
      <table class="diff-table">
        <thead>
          <tr>
            <th scope="col" colSpan={3}>
              Old
            </th>
            <th scope="col" colSpan={3}>
              New
            </th>
          </tr>
        </thead>
        <tbody>
          {shown.map((row, index) =>
            row.type === 'collapsed' ? (
              <tr key={`c${row.oldStart}`} class="collapsed-row">
                <td colSpan={6}>
                  <button type="button" class="link-button" onClick={() => setRows(expandCollapsed(rows, index))}>
                    Show {row.count} unchanged lines
                  </button>
                </td>
              </tr>
            ) : (
              <tr key={`${row.oldLine}:${row.newLine}`} class={row.type === 'changed' ? 'changed-row' : 'same-row'}>
                <Side line={row.oldLine} lines={oldLines} marker={row.type === 'changed' ? '-' : ' '} />
                <Side line={row.newLine} lines={newLines} marker={row.type === 'changed' ? '+' : ' '} />
              </tr>
            ),
          )}
        </tbody>
      </table>
      {rows.length > rowLimit ? (
        <button type="button" onClick={() => setRowLimit(rows.length)}>
          Show the remaining {rows.length - rowLimit} rows
        </button>
      ) : null}
      {rows.length === 0 ? <p>Both sides are empty.</p> : null}
    </div>
  );
}
