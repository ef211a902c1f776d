// GET /api/stats of the console: the figures of the records dev keeps (records.ts), for
// `npm run stats` without --env and for the console's health view. `?since=1h|DATE&until=DATE
// &account=a,b&function=f&by=account|function|version`; `&samples=N` adds each row's N latest
// failing and N slowest calls (by request id: the view links them to their activity entries).
import { aggregate, type StoredRecord } from '../../stats/aggregate.ts';
import type { StatsAnswer } from '../../stats/figures.ts';
import { queryOf } from '../../stats/window.ts';

/** The most samples a row may ask for. */
const MAX_SAMPLES = 20;

/**
 * The answer to one request: 200 with `{ since, until, rows }`, or 400 naming the bad parameter.
 * @example statsAnswer(store.records(), new URLSearchParams('since=1h'), Date.now())
 */
export const statsAnswer = (
  records: Iterable<StoredRecord>,
  search: URLSearchParams,
  now: number,
): { status: number; body: StatsAnswer | { error: string } } => {
  const list = (name: string) => {
    const value = search.get(name);
    return value === null ? undefined : [value];
  };
  try {
    const query = queryOf(
      {
        since: search.get('since') ?? undefined,
        until: search.get('until') ?? undefined,
        by: search.get('by') ?? undefined,
        accounts: list('account'),
        functions: list('function'),
      },
      now,
    );
    const samples = Math.min(MAX_SAMPLES, Math.max(0, Number.parseInt(search.get('samples') ?? '0', 10) || 0));
    const rows = aggregate(records, query, samples ? { samples } : {});
    return {
      status: 200,
      body: { since: new Date(query.since).toISOString(), until: new Date(query.until).toISOString(), rows },
    };
  } catch (error) {
    return { status: 400, body: { error: (error as Error).message.replace(/--(\w+)/g, '$1') } };
  }
};
