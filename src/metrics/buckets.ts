// A minute's figures of one account's function, per kind: what the metrics option keeps for the
// alert rules (docs/observability.md "Alerts"). Records are added up per isolate into these (no
// list of records is ever kept), and a flush hands the FunctionHealth Durable Object the sums.
import type { CallRecord } from '../record.ts';

/** The figures of one minute of one account's function and kind. */
export interface Bucket {
  /** The minute, as whole minutes since the epoch. */
  minute: number;
  account: string;
  function: string;
  kind: string;
  calls: number;
  ok: number;
  refused: number;
  errors: number;
  timeouts: number;
  /** Deferred or approved work that failed: an error, or its follow-up not sent. */
  deferredFailures: number;
  /** Approval decisions that were expiries. */
  approvalExpiries: number;
  /** Errors' codes and how many of each (a refusal's code is the caller's doing: `npm run stats` has those). */
  codes: Record<string, number>;
}

/** Kinds whose failure is deferred work failing (after the caller had its answer). */
const LATER_KINDS = new Set(['deferred', 'approval_run']);

/** Whole minutes since the epoch of `ms`. */
export const minuteOf = (ms: number): number => Math.floor(ms / 60_000);

/**
 * Adds `record` to its bucket of `buckets` (by minute, account, function and kind), made when new.
 * A record without an account or function (refused before either was known) is left out: no rule
 * watches it, and `npm run stats` reads those from Analytics Engine.
 */
export const addRecord = (buckets: Map<string, Bucket>, record: CallRecord, now: number): void => {
  if (record.account === null || record.function === null) return;
  const minute = minuteOf(now);
  const key = `${minute}\n${record.account}\n${record.function}\n${record.kind}`;
  let bucket = buckets.get(key);
  if (!bucket) {
    bucket = {
      minute,
      account: record.account,
      function: record.function,
      kind: record.kind,
      calls: 0,
      ok: 0,
      refused: 0,
      errors: 0,
      timeouts: 0,
      deferredFailures: 0,
      approvalExpiries: 0,
      codes: {},
    };
    buckets.set(key, bucket);
  }
  bucket.calls++;
  if (record.outcome === 'ok') bucket.ok++;
  else if (record.outcome === 'refused') bucket.refused++;
  else bucket.errors++;
  if (record.code === 'timeout') bucket.timeouts++;
  if (LATER_KINDS.has(record.kind) && (record.outcome === 'error' || record.followUp === 'failed'))
    bucket.deferredFailures++;
  if (record.kind === 'approval_decision' && record.code === 'expired') bucket.approvalExpiries++;
  if (record.code && record.outcome === 'error' && record.kind !== 'approval_decision')
    bucket.codes[record.code] = (bucket.codes[record.code] ?? 0) + 1;
};
