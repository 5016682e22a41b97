import Table from 'cli-table3';
import type { Colors } from './colors';

const NO_BORDER = {
  top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
  bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
  left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '',
  middle: '  ',
};

/**
 * Columns aligned with two spaces between them and no borders, like `docker ps`: easy to read
 * and to cut with awk. Cells may carry colour; widths are measured without it.
 */
export function formatTable(headers: string[] | null, rows: string[][], colors: Colors): string {
  const table = new Table({
    ...(headers ? { head: headers.map((header) => colors.bold(header)) } : {}),
    chars: NO_BORDER,
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
  });
  table.push(...rows);
  return table
    .toString()
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n');
}
