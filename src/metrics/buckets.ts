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

/** Whether `bucket` is the one of `record` in `minute`. */
const holds = (bucket: Bucket, record: CallRecord, minute: number): boolean =>
  bucket.minute === minute &&
  bucket.account === record.account &&
  bucket.function === record.function &&
  bucket.kind === record.kind;

/** An isolate's buckets since the last flush: records are added, a flush takes them all. */
export interface BucketBuffer {
  /**
   * Adds `record` to its bucket (by minute, account, function and kind), made when new. A record
   * without an account or function (refused before either was known) is left out: no rule watches
   * it, and `npm run stats` reads those from Analytics Engine.
   */
  add(record: CallRecord, now: number): void;
  /** The buckets added to since the last take, which leaves the buffer empty. */
  take(): Bucket[];
}

/**
 * An empty buffer. Under load one function's calls follow each other, so the last bucket is
 * checked first: most records find theirs without building a key (this runs on every call).
 * @example const buffer = createBucketBuffer(); buffer.add(record, Date.now()); flush(buffer.take())
 */
export const createBucketBuffer = (): BucketBuffer => {
  let buckets = new Map<string, Bucket>();
  let last: Bucket | undefined;
  const bucketOf = (record: CallRecord & { account: string; function: string }, minute: number): Bucket => {
    if (last && holds(last, record, minute)) return last;
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
    last = bucket;
    return bucket;
  };
  return {
    add: (record, now) => {
      if (record.account === null || record.function === null) return;
      const bucket = bucketOf(record as CallRecord & { account: string; function: string }, minuteOf(now));
      bucket.calls++;
      if (record.outcome === 'ok') bucket.ok++;
      else if (record.outcome === 'refused') bucket.refused++;
      else bucket.errors++;
      if (LATER_KINDS.has(record.kind) && (record.outcome === 'error' || record.followUp === 'failed'))
        bucket.deferredFailures++;
      if (!record.code) return;
      if (record.code === 'timeout') bucket.timeouts++;
      if (record.kind === 'approval_decision' && record.code === 'expired') bucket.approvalExpiries++;
      if (record.outcome === 'error' && record.kind !== 'approval_decision')
        bucket.codes[record.code] = (bucket.codes[record.code] ?? 0) + 1;
    },
    take: () => {
      const taken = [...buckets.values()];
      buckets = new Map();
      last = undefined;
      return taken;
    },
  };
};
