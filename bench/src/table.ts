// Plain-text tables for the terminal and Markdown tables for docs/performance.md, from the same rows.

/** A cell: text as it is, numbers formatted by the column. */
export type Cell = string | number | null;

/** A table of one benchmark part. */
export interface Table {
  title: string;
  columns: string[];
  rows: Cell[][];
  /** Lines printed under the table: how it was measured, targets met or not. */
  notes?: string[];
}

/**
 * A cell as the tables print it: numbers to three significant figures or so, `-` when empty.
 * @example text(1234.5) // '1235'; text(3.14159) // '3.14'
 */
export const text = (cell: Cell): string => {
  if (cell === null) return '-';
  if (typeof cell === 'string') return cell;
  if (!Number.isFinite(cell)) return 'n/a';
  if (Number.isInteger(cell)) return String(cell);
  return Math.abs(cell) >= 100 ? cell.toFixed(0) : Math.abs(cell) >= 10 ? cell.toFixed(1) : cell.toFixed(2);
};

/**
 * A difference as the tables print it, with its sign: `+` when it adds, `-` when it saves.
 * @example signed(0.35) // '+0.35'; signed(-0.11) // '-0.11'
 */
export const signed = (difference: number): string => `${difference < 0 ? '-' : '+'}${text(Math.abs(difference))}`;

const isNumeric = (column: Cell[]): boolean => column.every((c) => c === null || typeof c === 'number');

/**
 * The table as aligned text: numbers right-aligned, text left-aligned.
 * @example renderTable({ title: 'T', columns: ['a'], rows: [[1]] })
 */
export const renderTable = (table: Table): string => {
  const cells = table.rows.map((row) => table.columns.map((_, i) => text(row[i] ?? null)));
  const numeric = table.columns.map((_, i) => isNumeric(table.rows.map((row) => row[i] ?? null)));
  const widths = table.columns.map((name, i) =>
    Math.max(name.length, ...cells.map((row) => (row[i] as string).length)),
  );
  const line = (row: string[]) =>
    row
      .map((cell, i) => (numeric[i] ? cell.padStart(widths[i] as number) : cell.padEnd(widths[i] as number)))
      .join('  ')
      .trimEnd();
  return [
    table.title,
    line(table.columns),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...cells.map(line),
    ...(table.notes ?? []).map((note) => `  ${note}`),
  ].join('\n');
};

/**
 * The table as Markdown, its title in bold above it unless `title` is false.
 * @example renderMarkdown({ title: 'T', columns: ['a'], rows: [[1]] })
 */
export const renderMarkdown = (table: Table, { title = true }: { title?: boolean } = {}): string => {
  const numeric = table.columns.map((_, i) => isNumeric(table.rows.map((row) => row[i] ?? null)));
  const cellText = (s: string) => s.replaceAll('|', '\\|');
  return [
    ...(title ? [`**${table.title}**`, ''] : []),
    `| ${table.columns.map(cellText).join(' | ')} |`,
    `| ${numeric.map((n) => (n ? '---:' : '---')).join(' | ')} |`,
    ...table.rows.map((row) => `| ${table.columns.map((_, i) => cellText(text(row[i] ?? null))).join(' | ')} |`),
    ...(table.notes?.length ? ['', ...table.notes.map((note) => `- ${note}`)] : []),
  ].join('\n');
};
