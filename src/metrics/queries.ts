// The figures the alert rules read: each account's functions summed over that account's window
// (one query per distinct window, usually one), with their most frequent refusal or error code.
import type { WindowFigures } from './rules.ts';
import { type AlertConfig, thresholdsFor } from './thresholds.ts';

type Row = Omit<WindowFigures, 'topCode'>;

/** Error-rate figures count the calls answered now and the event deliveries; every kind counts failed work and expiries. */
const SUMS = `SELECT account, function AS function,
  sum(CASE WHEN kind IN ('call', 'event') THEN calls ELSE 0 END) AS calls,
  sum(CASE WHEN kind IN ('call', 'event') THEN errors ELSE 0 END) AS errors,
  sum(CASE WHEN kind IN ('call', 'event') THEN refused ELSE 0 END) AS refused,
  sum(timeouts) AS timeouts, sum(deferred_failures) AS deferredFailures, sum(approval_expiries) AS approvalExpiries
  FROM buckets WHERE minute > ? AND minute <= ? GROUP BY account, function`;

const CODES = `SELECT account, function AS function, code, sum(n) AS n FROM codes
  WHERE minute > ? AND minute <= ? GROUP BY account, function, code`;

/**
 * Every account's functions' figures over its window ending at minute `now` (inclusive), by
 * `JSON.stringify([account, function])`.
 */
export const windowFigures = (sql: SqlStorage, now: number, config: AlertConfig): Map<string, WindowFigures> => {
  const windows = new Set([config.project.windowMinutes]);
  for (const account of Object.keys(config.accounts)) windows.add(thresholdsFor(config, account).windowMinutes);
  const figures = new Map<string, WindowFigures>();
  for (const window of windows) {
    const mine = (account: string) => thresholdsFor(config, account).windowMinutes === window;
    for (const row of sql.exec<Row>(SUMS, now - window, now)) {
      if (mine(row.account)) figures.set(JSON.stringify([row.account, row.function]), { ...row });
    }
    for (const row of sql.exec<{ account: string; function: string; code: string; n: number }>(
      CODES,
      now - window,
      now,
    )) {
      if (!mine(row.account)) continue;
      const f = figures.get(JSON.stringify([row.account, row.function]));
      if (f && (!f.topCode || row.n > f.topCode.count)) f.topCode = { code: row.code, count: row.n };
    }
  }
  return figures;
};
