// The figures of `npm run stats` and of the console's health view (docs/observability.md, "Figures"),
// defined once: each is a condition on a record's fields, which the local path tests record by
// record (aggregate.ts) and the deployed path turns into Workers Analytics Engine SQL (sql.ts) on
// the columns the metrics option writes (recordColumn), so both count the same thing.
import type { CallRecord } from 'agent-functions/internal';

/** The fields a figure's condition reads; flags read as '1' or '0', an absent value as ''. */
export type ConditionField = 'kind' | 'outcome' | 'code' | 'followUp' | 'repeated' | 'deferred';

/** One field equal to one of these values; a figure counts the records meeting all its conditions. */
export interface Condition {
  field: ConditionField;
  oneOf: readonly string[];
}

/**
 * What a "call" is in the figures: a call answered now (over HTTP or MCP), the call that opened an
 * approval, and an event delivery. Deferred work and an approved function's run belong to the call
 * that started them, so a call is counted once; their outcomes have figures of their own.
 */
export const CALL_KINDS = ['call', 'approval_ask', 'event'] as const;
/** Everything that ran a handler: the calls, deferred work and approved runs (for timeouts). */
const RUN_KINDS = [...CALL_KINDS, 'deferred', 'approval_run'] as const;

const calls: Condition = { field: 'kind', oneOf: CALL_KINDS };
const is = (field: ConditionField, ...oneOf: string[]): Condition => ({ field, oneOf });

/** The counted figures, in the order the table and the CSV show them. */
export const FIGURES = {
  calls: [calls],
  ok: [calls, is('outcome', 'ok')],
  refused: [calls, is('outcome', 'refused')],
  errors: [calls, is('outcome', 'error')],
  timeouts: [is('kind', ...RUN_KINDS), is('code', 'timeout')],
  repeats: [calls, is('repeated', '1')],
  deferred: [is('kind', 'call'), is('deferred', '1')],
  deferredFailed: [is('kind', 'deferred'), is('outcome', 'refused', 'error')],
  followUpsSent: [is('followUp', 'sent')],
  followUpsFailed: [is('followUp', 'failed')],
  approvalsAsked: [is('kind', 'approval_ask'), is('outcome', 'ok')],
  approved: [is('kind', 'approval_decision'), is('code', 'approved')],
  denied: [is('kind', 'approval_decision'), is('code', 'denied')],
  expired: [is('kind', 'approval_decision'), is('code', 'expired')],
} as const satisfies Record<string, readonly Condition[]>;

export type Figure = keyof typeof FIGURES;
export const FIGURE_NAMES = Object.keys(FIGURES) as Figure[];

/** The records whose codes are counted (the refusals and errors of calls) and whose durations make the percentiles. */
export const CODED: readonly Condition[] = [calls, is('outcome', 'refused', 'error')];
export const TIMED: readonly Condition[] = [calls];

/** The percentiles every row carries. */
export const PERCENTILES = { p50Ms: 0.5, p95Ms: 0.95, p99Ms: 0.99 } as const;
export type Percentile = keyof typeof PERCENTILES;

/** How rows are grouped: per account, per account and function (the default), or also per version. */
export const GROUPINGS = ['account', 'function', 'version'] as const;
export type Grouping = (typeof GROUPINGS)[number];

/** One row of `npm run stats` (docs/platform-contract.md §11): what one account's function did in the window. */
export type StatsRow = {
  account: string | null;
  /** Absent with `--by account`. */
  function?: string | null;
  /** Only with `--by version`: the description's version (a short hash of what sync registered). */
  version?: string | null;
  codes: Record<string, number>;
} & Record<Figure, number> &
  Record<Percentile, number | null>;

/** What `npm run stats -- --json` prints. */
export interface StatsAnswer {
  since: string;
  until: string;
  rows: StatsRow[];
}

/** A record's value of a condition's field, as a condition compares it. */
export const fieldValue = (record: CallRecord, field: ConditionField): string => {
  const value = record[field];
  if (typeof value === 'boolean') return value ? '1' : '0';
  return value ?? (field === 'repeated' || field === 'deferred' ? '0' : '');
};

/** Whether `record` meets every condition. */
export const meets = (record: CallRecord, conditions: readonly Condition[]): boolean =>
  conditions.every((condition) => condition.oneOf.includes(fieldValue(record, condition.field)));
