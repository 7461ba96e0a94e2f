/**
 * Plain-text tables for people, fitted to the terminal: columns keep their order and are left
 * out from the right when they no longer fit (the caller says which), wide cells are cut with
 * "…". Chinese characters count as two columns.
 */
import { displayWidth } from '../io/text';

export interface TableColumn {
  header: string;
  align?: 'left' | 'right';
  /**
   * Free text may be cut to make room (the default); amounts, times and labels keep their
   * width — a cut date is no date — and the column goes instead when it does not fit.
   */
  shrink?: boolean;
}

export interface Table {
  text: string;
  /** Headers of the columns that did not fit. */
  omitted: string[];
}

/** Cells longer than this are cut even when the terminal is wide: a table is for scanning. */
const CELL_MAX = 40;
/** Text is not squeezed below this (or its header) to make room for another column. */
const CELL_MIN = 10;
const GAP = '  ';

export function renderTable(
  columns: readonly TableColumn[],
  rows: readonly string[][],
  maxWidth: number,
  { cellMax = CELL_MAX }: { cellMax?: number } = {},
): Table {
  const natural = columns.map((column, i) =>
    Math.max(
      displayWidth(column.header),
      Math.min(cellMax, Math.max(0, ...rows.map((row) => displayWidth(row[i] ?? '')))),
    ),
  );
  const least = natural.map((width, i) =>
    columns[i]?.shrink === false
      ? width
      : Math.min(width, Math.max(CELL_MIN, displayWidth(columns[i]?.header ?? ''))),
  );

  // As many columns, in order, as fit at their least width; the first always shows.
  let count = 0;
  let used = 0;
  while (count < columns.length) {
    const next = used + (count > 0 ? GAP.length : 0) + (least[count] ?? 0);
    if (count > 0 && next > maxWidth) break;
    used = next;
    count++;
  }
  // The room left goes to the shown columns, left to right, up to their natural width.
  const widths = least.slice(0, count);
  let spare = maxWidth - used;
  for (let i = 0; i < count && spare > 0; i++) {
    const grow = Math.min(spare, (natural[i] ?? 0) - (widths[i] ?? 0));
    widths[i] = (widths[i] ?? 0) + grow;
    spare -= grow;
  }
  if (count === 1 && used > maxWidth) widths[0] = Math.max(1, maxWidth);

  const line = (cells: readonly string[]) =>
    widths
      .map((width, i) => {
        const text = truncate(cells[i] ?? '', width);
        const pad = ' '.repeat(width - displayWidth(text));
        if (columns[i]?.align === 'right') return pad + text;
        return i === widths.length - 1 ? text : text + pad;
      })
      .join(GAP)
      .trimEnd();

  const lines = [line(columns.map((c) => c.header)), ...rows.map(line)];
  return { text: `${lines.join('\n')}\n`, omitted: columns.slice(count).map((c) => c.header) };
}

/** The text cut to `width` terminal columns, ending in "…" when cut. */
export function truncate(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let out = '';
  let used = 0;
  for (const char of text) {
    const w = displayWidth(char);
    if (used + w > width - 1) break;
    out += char;
    used += w;
  }
  return `${out}…`;
}
