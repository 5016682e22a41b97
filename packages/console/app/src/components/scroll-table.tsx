import type { ComponentChildren } from 'preact';

interface ScrollTableProps {
  /** Names the scrolling region (keyboard users scroll it once focused). */
  label: string;
  caption: ComponentChildren;
  columns: readonly string[];
  /** The `<tr>` rows. */
  children: ComponentChildren;
}

/** A data table with a caption and column headers, in a focusable region that scrolls sideways on narrow screens. */
export function ScrollTable({ label, caption, columns, children }: ScrollTableProps) {
  return (
    <div class="table-scroll" tabindex={0} role="region" aria-label={label}>
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
