// The deployed figures: the conditions of figures.ts as Workers Analytics Engine SQL on the columns
// the metrics option writes (recordColumn of src/record.ts), every count weighted by the data
// point's `_sample_interval` (the store samples at volume: a plain count() undercounts), and the
// answers turned into rows by aggregate.ts's rowOf. docs/observability.md, "Figures".
import { recordColumn } from 'agent-functions/internal';
import { type RowKeys, rowOf, type StatsQuery, sortRows } from './aggregate.ts';
import {
  CODED,
  type Condition,
  FIGURE_NAMES,
  FIGURES,
  type Figure,
  PERCENTILES,
  type Percentile,
  type StatsRow,
  TIMED,
} from './figures.ts';

/** A name that may appear in a query as a literal: accounts, functions, datasets are all of this form. */
export const SQL_NAME = /^[A-Za-z0-9_.:-]{1,128}$/;

const literal = (value: string): string => {
  if (!SQL_NAME.test(value) && value !== '') throw new Error(`"${value}" cannot be asked for.`);
  return `'${value}'`;
};

const FLAGS: readonly string[] = ['repeated', 'deferred'];

/** One condition in SQL: a blob equal to one of its values, or a 0/1 flag. */
const conditionSql = ({ field, oneOf }: { field: Parameters<typeof recordColumn>[0]; oneOf: readonly string[] }) => {
  const column = recordColumn(field);
  const each = oneOf.map((value) => `${column} = ${FLAGS.includes(field) ? Number(value) : literal(value)}`);
  return each.length === 1 ? (each[0] as string) : `(${each.join(' OR ')})`;
};

export const conditionsSql = (conditions: readonly Condition[]): string => conditions.map(conditionSql).join(' AND ');

/** The DateTime literal of an instant (the store keeps UTC seconds). */
const dateTime = (ms: number) => `toDateTime('${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')}')`;

/** The columns a row is grouped by. */
const groupColumns = (query: StatsQuery): string[] => [
  recordColumn('account'),
  ...(query.by === 'account' ? [] : [recordColumn('function')]),
  ...(query.by === 'version' ? [recordColumn('version')] : []),
];

const whereSql = (query: StatsQuery, extra: readonly Condition[]): string => {
  const parts = [`timestamp >= ${dateTime(query.since)}`, `timestamp < ${dateTime(query.until)}`];
  if (query.accounts?.length) parts.push(conditionSql({ field: 'account', oneOf: query.accounts }));
  if (query.functions?.length) {
    parts.push(conditionSql({ field: 'function', oneOf: query.functions }));
  }
  if (extra.length > 0) parts.push(conditionsSql(extra));
  return parts.join(' AND ');
};

/**
 * The queries of a stats run: the weighted figures per group, the weighted percentiles of the
 * calls' durations, the weighted codes of refused and failed calls, and the dataset's total.
 * @example statsQueries({ since, until, by: 'function' }, 'agent_functions_calls').figures
 */
export const statsQueries = (query: StatsQuery, dataset: string) => {
  const table = literal(dataset).slice(1, -1);
  const groups = groupColumns(query);
  const select = groups.join(', ');
  const figures = FIGURE_NAMES.map((name) => `sumIf(_sample_interval, ${conditionsSql(FIGURES[name])}) AS ${name}`);
  const quantiles = (Object.entries(PERCENTILES) as [Percentile, number][]).map(
    ([name, q]) => `quantileExactWeighted(${q})(${recordColumn('durationMs')}, _sample_interval) AS ${name}`,
  );
  const code = recordColumn('code');
  return {
    figures: `SELECT ${select}, ${figures.join(', ')} FROM ${table} WHERE ${whereSql(query, [])} GROUP BY ${select} FORMAT JSON`,
    percentiles: `SELECT ${select}, ${quantiles.join(', ')} FROM ${table} WHERE ${whereSql(query, TIMED)} GROUP BY ${select} FORMAT JSON`,
    codes: `SELECT ${select}, ${code}, sum(_sample_interval) AS n FROM ${table} WHERE ${whereSql(query, CODED)} AND ${code} != '' GROUP BY ${select}, ${code} FORMAT JSON`,
    /** Whether the dataset holds anything at all (asked only when the window is empty). */
    total: `SELECT sum(_sample_interval) AS n FROM ${table} FORMAT JSON`,
  };
};

type SqlRow = Record<string, unknown>;

const keysOfSql = (row: SqlRow, query: StatsQuery): RowKeys => {
  const value = (field: 'account' | 'function' | 'version') => {
    const text = row[recordColumn(field)];
    return typeof text === 'string' && text !== '' ? text : null;
  };
  return {
    account: value('account'),
    ...(query.by === 'account' ? {} : { function: value('function') }),
    ...(query.by === 'version' ? { version: value('version') } : {}),
  };
};

const keyOf = (keys: RowKeys) => `${keys.account}\u0000${keys.function}\u0000${keys.version}`;
const numberOf = (value: unknown): number => (typeof value === 'number' ? value : Number(value ?? 0)) || 0;

/** The rows from the three answers' data (the SQL API's JSON `data`), as aggregate.ts builds local ones. */
export const rowsOfSql = (
  query: StatsQuery,
  answers: { figures: SqlRow[]; percentiles: SqlRow[]; codes: SqlRow[] },
): StatsRow[] => {
  const byKey = <T>(rows: SqlRow[], pick: (row: SqlRow) => T) =>
    new Map(rows.map((row) => [keyOf(keysOfSql(row, query)), pick(row)] as const));
  const percentiles = byKey(answers.percentiles, (row) =>
    Object.fromEntries((Object.keys(PERCENTILES) as Percentile[]).map((name) => [name, numberOf(row[name])])),
  );
  const codes = new Map<string, Record<string, number>>();
  for (const row of answers.codes) {
    const key = keyOf(keysOfSql(row, query));
    const code = String(row[recordColumn('code')]);
    const held = codes.get(key) ?? {};
    held[code] = Math.round(numberOf(row.n));
    codes.set(key, held);
  }
  const rows = answers.figures.map((row) => {
    const keys = keysOfSql(row, query);
    const counts = Object.fromEntries(FIGURE_NAMES.map((name) => [name, numberOf(row[name])])) as Record<
      Figure,
      number
    >;
    const timed = counts.calls > 0 ? percentiles.get(keyOf(keys)) : undefined;
    return rowOf(keys, counts, codes.get(keyOf(keys)) ?? {}, timed ?? {});
  });
  return sortRows(rows.filter((row) => FIGURE_NAMES.some((name) => row[name] > 0)));
};
