// The window and filters of a stats query, from the command's flags or the console's query string:
// `--since 1h|24h|7d|DATE` (any count of m, h or d), `--until DATE`, lists of accounts and functions,
// and the grouping. One reader for both, so `npm run stats` and the console ask the same thing.
import type { StatsQuery } from './aggregate.ts';
import { GROUPINGS, type Grouping } from './figures.ts';
import { SQL_NAME } from './sql.ts';

const UNITS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
/** The window when none is asked for. */
export const DEFAULT_SINCE = '24h';

/**
 * An instant from `1h` (that long before `now`) or a date (`2026-11-01`, midnight UTC, or a full ISO time).
 * @example instantOf('7d', Date.now())
 */
export const instantOf = (value: string, now: number, flag: string): number => {
  const relative = /^(\d{1,5})([mhd])$/.exec(value);
  if (relative) return now - Number(relative[1]) * UNITS[relative[2] as keyof typeof UNITS];
  const at = /^\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(at)) {
    throw new Error(
      `${flag} takes 1h, 24h, 7d (any number of m, h or d) or a date such as 2026-11-01, not "${value}".`,
    );
  }
  return at;
};

/** A comma-separated list of names (repeatable flags joined), each checked. */
export const namesOf = (values: readonly string[] | undefined, flag: string): string[] | undefined => {
  const names = values
    ?.flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter(Boolean);
  const bad = names?.find((name) => !SQL_NAME.test(name));
  if (bad) throw new Error(`${flag} takes names such as client-acme or find_parcel, not "${bad.slice(0, 60)}".`);
  return names?.length ? names : undefined;
};

/** What a query asks, before it is read into instants. */
export interface QueryText {
  since?: string | undefined;
  until?: string | undefined;
  accounts?: readonly string[] | undefined;
  functions?: readonly string[] | undefined;
  by?: string | undefined;
}

/**
 * The query the text asks; throws a one-line error for anything malformed.
 * @example queryOf({ since: '1h', by: 'account' }, Date.now())
 */
export const queryOf = (text: QueryText, now: number): StatsQuery => {
  const since = instantOf(text.since ?? DEFAULT_SINCE, now, '--since');
  const until = text.until === undefined ? now : instantOf(text.until, now, '--until');
  if (since >= until) throw new Error('--since must be before --until.');
  const by = text.by ?? 'function';
  if (!(GROUPINGS as readonly string[]).includes(by)) {
    throw new Error(`--by takes ${GROUPINGS.join(', ')}, not "${by}".`);
  }
  const accounts = namesOf(text.accounts, '--account');
  const functions = namesOf(text.functions, '--function');
  return {
    since,
    until,
    by: by as Grouping,
    ...(accounts ? { accounts } : {}),
    ...(functions ? { functions } : {}),
  };
};

/** The query as the console's query string (instants as ISO times). */
export const searchOf = (query: StatsQuery): URLSearchParams => {
  const search = new URLSearchParams({
    since: new Date(query.since).toISOString(),
    until: new Date(query.until).toISOString(),
    by: query.by,
  });
  if (query.accounts) search.set('account', query.accounts.join(','));
  if (query.functions) search.set('function', query.functions.join(','));
  return search;
};
