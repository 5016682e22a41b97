import { useMemo } from 'preact/hooks';
import { highlightLines } from '../diff/highlight-code';

/** A file's text with line numbers, highlighted by its extension. */
export function CodeView({ path, text }: { path: string; text: string }) {
  const lines = useMemo(() => highlightLines(text, path), [text, path]);
  return (
    <div class="table-scroll" tabindex={0} role="group" aria-label={`Lines of ${path}`}>
      <table class="diff-table code-table">
        <tbody>
          {lines.map((html, index) => (
            <tr key={index}>
              <td class="line-number">{index + 1}</td>
              <td class="code">
                {/* highlight.js escapes the file's text; the only markup is its own spans. */}
                <code dangerouslySetInnerHTML={{ __html: html }} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {lines.length === 0 ? <p>The file is empty.</p> : null}
    </div>
  );
}
