// How `npm run stats` prints its rows: a table for a person (colours only on a terminal; the
// columns of figures that are all zero are left out), or CSV with every figure (an invoice's
// usage table with --by account). JSON is the answer itself (docs/platform-contract.md §11).
import type { Paint } from '../sync/paint.ts';
import { FIGURE_NAMES, type Figure, type Grouping, PERCENTILES, type StatsAnswer, type StatsRow } from './figures.ts';

/** The top codes of a row, most frequent first: `timeout 3, not_found 1`. */
export const topCodes = (codes: Record<string, number>, count = 3): string =>
  Object.entries(codes)
    .toSorted((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, count)
    .map(([code, n]) => `${code} ${n}`)
    .join(', ');

/** The columns that name a row, by its grouping. */
const keyColumns = (by: Grouping): Array<'account' | 'function' | 'version'> =>
  by === 'account' ? ['account'] : by === 'function' ? ['account', 'function'] : ['account', 'function', 'version'];

const ms = (value: number | null) => (value === null ? '-' : `${value} ms`);

type Column = {
  title: string;
  cell: (row: StatsRow) => string;
  paint?: (row: StatsRow) => keyof Paint | undefined;
  optional?: boolean;
};

const figure = (name: Figure, title: string, optional = true): Column => ({
  title,
  cell: (row) => String(row[name]),
  optional,
});

/** The table's columns after the row's keys; optional ones show only when some row has a figure there. */
const COLUMNS: Column[] = [
  figure('calls', 'calls', false),
  { ...figure('ok', 'ok', false), paint: (row) => (row.ok > 0 ? 'green' : undefined) },
  { ...figure('refused', 'refused', false), paint: (row) => (row.refused > 0 ? 'yellow' : undefined) },
  { ...figure('errors', 'errors', false), paint: (row) => (row.errors > 0 ? 'red' : undefined) },
  { title: 'top codes', cell: (row) => topCodes(row.codes) || '-' },
  { title: 'p50', cell: (row) => ms(row.p50Ms) },
  { title: 'p95', cell: (row) => ms(row.p95Ms) },
  { title: 'p99', cell: (row) => ms(row.p99Ms) },
  { ...figure('timeouts', 'timeouts'), paint: (row) => (row.timeouts > 0 ? 'red' : undefined) },
  figure('repeats', 'repeats'),
  figure('deferred', 'deferred'),
  { ...figure('deferredFailed', 'deferred failed'), paint: (row) => (row.deferredFailed > 0 ? 'red' : undefined) },
  figure('followUpsSent', 'follow-ups sent'),
  { ...figure('followUpsFailed', 'follow-ups failed'), paint: (row) => (row.followUpsFailed > 0 ? 'red' : undefined) },
  figure('approvalsAsked', 'approvals asked'),
  figure('approved', 'approved'),
  figure('denied', 'denied'),
  figure('expired', 'expired'),
];

/**
 * The rows as an aligned table under a line naming the window and the source.
 * @example formatTable(answer, 'function', 'the running npm run dev', paintFor(process.stdout))
 */
export const formatTable = (answer: StatsAnswer, by: Grouping, source: string, paint: Paint): string => {
  const head = `Calls from ${answer.since} to ${answer.until}, ${source}:`;
  if (answer.rows.length === 0) return `${head}\n  none in this window.\n`;
  const keys = keyColumns(by);
  const shown = COLUMNS.filter((column) => !column.optional || answer.rows.some((row) => column.cell(row) !== '0'));
  const cells = answer.rows.map((row) => [
    ...keys.map((key) => row[key] ?? '(none)'),
    ...shown.map((column) => column.cell(row)),
  ]);
  const titles = [...keys, ...shown.map((column) => column.title)];
  const widths = titles.map((title, i) => Math.max(title.length, ...cells.map((line) => (line[i] as string).length)));
  const numeric = (i: number) => i >= keys.length && shown[i - keys.length]?.title !== 'top codes';
  const pad = (text: string, i: number) =>
    numeric(i) ? text.padStart(widths[i] as number) : text.padEnd(widths[i] as number);
  const lines = cells.map((line, r) =>
    line
      .map((text, i) => {
        const style = i >= keys.length ? shown[i - keys.length]?.paint?.(answer.rows[r] as StatsRow) : undefined;
        return style ? paint[style](pad(text, i)) : pad(text, i);
      })
      .join('  ')
      .trimEnd(),
  );
  return `${head}\n${paint.bold(titles.map(pad).join('  ').trimEnd())}\n${lines.join('\n')}\n`;
};

const csvCell = (value: string | number | null | undefined): string => {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/**
 * The rows as CSV, every figure a column and the codes as `code:n` pairs in one column; the window
 * is in the `since` and `until` columns, so a saved file says which period it covers.
 * @example formatCsv(answer, 'account') // 'since,until,account,calls,...'
 */
export const formatCsv = (answer: StatsAnswer, by: Grouping): string => {
  const keys = keyColumns(by);
  const figures: Array<Figure | keyof typeof PERCENTILES> = [
    'calls',
    'ok',
    'refused',
    'errors',
    ...(Object.keys(PERCENTILES) as Array<keyof typeof PERCENTILES>),
    ...FIGURE_NAMES.filter((name) => !['calls', 'ok', 'refused', 'errors'].includes(name)),
  ];
  const header = ['since', 'until', ...keys, ...figures.slice(0, 4), 'codes', ...figures.slice(4)];
  const lines = answer.rows.map((row) =>
    [
      answer.since,
      answer.until,
      ...keys.map((key) => row[key]),
      ...figures.slice(0, 4).map((name) => row[name]),
      Object.entries(row.codes)
        .map(([code, n]) => `${code}:${n}`)
        .join(' '),
      ...figures.slice(4).map((name) => row[name]),
    ]
      .map(csvCell)
      .join(','),
  );
  return `${[header.join(','), ...lines].join('\n')}\n`;
};
