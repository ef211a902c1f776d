// The figures of records kept locally (npm run dev's record ring), one row per account and function
// (or per account, or per version), by the conditions of figures.ts. The deployed path gets the same
// sums from SQL (sql.ts) and builds its rows with the same rowOf and sortRows.
import { type CallRecord, OUTCOMES, RECORD_KINDS } from 'agent-functions/internal';
import {
  CODED,
  FIGURE_NAMES,
  FIGURES,
  type Figure,
  type Grouping,
  meets,
  PERCENTILES,
  type Percentile,
  type StatsRow,
  TIMED,
} from './figures.ts';

/** A record as dev keeps it: with when dev read it. */
export type StoredRecord = CallRecord & { at: number };

/** Which records, and how grouped. Times are ms since the epoch, `until` excluded. */
export interface StatsQuery {
  since: number;
  until: number;
  accounts?: readonly string[] | undefined;
  functions?: readonly string[] | undefined;
  by: Grouping;
}

/** Calls of a row to look at in the console's activity, by request id. */
export interface RowSamples {
  /** The latest refused or failed calls, newest first. */
  failing: Array<{ requestId: string; at: number; status: number; code?: string }>;
  /** The slowest calls, slowest first. */
  slowest: Array<{ requestId: string; at: number; durationMs: number }>;
}

/** The identity of a row: its account, and its function and version when grouped by them. */
export interface RowKeys {
  account: string | null;
  function?: string | null;
  version?: string | null;
}

/** A row from its keys, counts, codes and percentiles (both paths build rows here). */
export const rowOf = (
  keys: RowKeys,
  counts: Partial<Record<Figure, number>>,
  codes: Record<string, number>,
  percentiles: Partial<Record<Percentile, number | null>>,
): StatsRow => {
  const count = (name: Figure) => Math.round(counts[name] ?? 0);
  // The contract's order: account, function, calls, ok, refused, errors, codes, p50Ms, p95Ms, p99Ms, the rest.
  const row: Record<string, unknown> = {
    ...keys,
    calls: count('calls'),
    ok: count('ok'),
    refused: count('refused'),
    errors: count('errors'),
    codes,
  };
  for (const name of Object.keys(PERCENTILES) as Percentile[]) {
    const value = percentiles[name];
    row[name] = value === null || value === undefined || !Number.isFinite(value) ? null : Math.round(value);
  }
  for (const name of FIGURE_NAMES) row[name] ??= count(name);
  return row as StatsRow;
};

const text = (value: string | null | undefined) => value ?? '';

/** Rows by account, then function, then version. */
export const sortRows = <T extends RowKeys>(rows: T[]): T[] =>
  rows.toSorted(
    (a, b) =>
      text(a.account).localeCompare(text(b.account)) ||
      text(a.function).localeCompare(text(b.function)) ||
      text(a.version).localeCompare(text(b.version)),
  );

/** The nearest-rank percentile of ascending `sorted`. */
const percentile = (sorted: Float64Array, q: number): number | null =>
  sorted.length === 0 ? null : (sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] as number);

export const keysOf = (record: CallRecord, by: Grouping): RowKeys => ({
  account: record.account || null,
  ...(by === 'account' ? {} : { function: record.function || null }),
  ...(by === 'version' ? { version: record.version || null } : {}),
});

interface Group {
  keys: RowKeys;
  counts: Record<Figure, number>;
  codes: Record<string, number>;
  durations: number[];
  samples: RowSamples;
}

const newGroup = (keys: RowKeys): Group => ({
  keys,
  counts: Object.fromEntries(FIGURE_NAMES.map((name) => [name, 0])) as Record<Figure, number>,
  codes: {},
  durations: [],
  samples: { failing: [], slowest: [] },
});

/** Keeps the latest failing and the slowest calls of a group (`limit` of each). */
const sample = (samples: RowSamples, record: StoredRecord, limit: number) => {
  if (record.outcome !== 'ok') {
    samples.failing.unshift({
      requestId: record.requestId,
      at: record.at,
      status: record.status,
      ...(record.code ? { code: record.code } : {}),
    });
    if (samples.failing.length > limit) samples.failing.pop();
  }
  const slowest = samples.slowest;
  if (slowest.length < limit || record.durationMs > (slowest.at(-1)?.durationMs ?? 0)) {
    slowest.push({ requestId: record.requestId, at: record.at, durationMs: record.durationMs });
    slowest.sort((a, b) => b.durationMs - a.durationMs);
    if (slowest.length > limit) slowest.pop();
  }
};

/** What a record counts towards: its figures, and whether its code and duration are counted. */
interface Plan {
  figures: Figure[];
  coded: boolean;
  timed: boolean;
}

/**
 * The plan of each kind of record, worked out once: records differ in few of the fields the
 * conditions read, so the conditions run once per distinct combination, not once per record.
 */
const planner = () => {
  // By code, then by a small number made of the other fields (no string built per record).
  const plans = new Map<string, Plan[]>();
  return (record: CallRecord): Plan => {
    const index =
      (RECORD_KINDS.indexOf(record.kind) << 5) |
      (OUTCOMES.indexOf(record.outcome) << 3) |
      ((record.followUp === 'sent' ? 1 : record.followUp === 'failed' ? 2 : 0) << 1) |
      (record.repeated ? 1 : 0);
    const byCode = plans.get(record.code ?? '') ?? [];
    plans.set(record.code ?? '', byCode);
    const slot = index * 2 + (record.deferred ? 1 : 0);
    let plan = byCode[slot];
    if (!plan) {
      plan = {
        figures: FIGURE_NAMES.filter((name) => meets(record, FIGURES[name])),
        coded: Boolean(record.code) && meets(record, CODED),
        timed: meets(record, TIMED),
      };
      byCode[slot] = plan;
    }
    return plan;
  };
};

/** The group of a record's keys, made on first use: maps by account, function and version (no key string per record). */
const grouper = (by: Grouping) => {
  const groups = new Map<string, Map<string, Map<string, Group>>>();
  const all: Group[] = [];
  const level = <T>(map: Map<string, T>, key: string, make: () => T): T => {
    let value = map.get(key);
    if (value === undefined) {
      value = make();
      map.set(key, value);
    }
    return value;
  };
  return {
    of(record: CallRecord): Group {
      const byFunction = level(groups, record.account ?? '', () => new Map<string, Map<string, Group>>());
      const byVersion = level(
        byFunction,
        by === 'account' ? '' : (record.function ?? ''),
        () => new Map<string, Group>(),
      );
      return level(byVersion, by === 'version' ? (record.version ?? '') : '', () => {
        const group = newGroup(keysOf(record, by));
        all.push(group);
        return group;
      });
    },
    all: () => all,
  };
};

/**
 * The rows of `records` (oldest first) in the query's window; with `samples`, each row also names
 * that many of its failing and slowest calls (the console's links to its activity).
 * @example aggregate(store.records(), { since: Date.now() - 3_600_000, until: Date.now(), by: 'function' })
 */
export const aggregate = (
  records: Iterable<StoredRecord>,
  query: StatsQuery,
  options: { samples?: number } = {},
): Array<StatsRow & { samples?: RowSamples }> => {
  const groups = grouper(query.by);
  const planOf = planner();
  const accounts = query.accounts?.length ? new Set(query.accounts) : undefined;
  const functions = query.functions?.length ? new Set(query.functions) : undefined;
  for (const record of records) {
    if (record.at < query.since || record.at >= query.until) continue;
    if (accounts && !accounts.has(record.account ?? '')) continue;
    if (functions && !functions.has(record.function ?? '')) continue;
    const group = groups.of(record);
    const plan = planOf(record);
    for (const name of plan.figures) group.counts[name] += 1;
    if (plan.coded) group.codes[record.code as string] = (group.codes[record.code as string] ?? 0) + 1;
    if (plan.timed) {
      group.durations.push(record.durationMs);
      if (options.samples) sample(group.samples, record, options.samples);
    }
  }
  const rows = groups.all().map((group) => {
    const sorted = Float64Array.from(group.durations).sort();
    const percentiles = Object.fromEntries(
      (Object.entries(PERCENTILES) as [Percentile, number][]).map(([name, q]) => [name, percentile(sorted, q)]),
    );
    const row = rowOf(group.keys, group.counts, group.codes, percentiles);
    return options.samples ? { ...row, samples: group.samples } : row;
  });
  return sortRows(rows);
};
