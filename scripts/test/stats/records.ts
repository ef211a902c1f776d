// Records for the stats tests: two accounts' calls of every kind and outcome, each with when it was read.
import type { CallRecord } from 'agent-functions/internal';
import type { StoredRecord } from '../../stats/aggregate.ts';

let next = 0;

/** One record: an ok call over HTTP of `find_parcel` in `client-acme` unless `fields` say otherwise. */
export const record = (fields: Partial<CallRecord> = {}, at = Date.now()): StoredRecord => ({
  account: 'client-acme',
  function: 'find_parcel',
  transport: 'http',
  kind: 'call',
  outcome: 'ok',
  status: 200,
  durationMs: 10,
  requestId: `rq_${++next}`,
  ...fields,
  at,
});

/**
 * A small day of two clients: acme's find_parcel mostly fails on an expired store key, and its
 * book_table defers and asks approvals; bistro's find_parcel is healthy.
 */
export const twoClients = (at: number): StoredRecord[] => [
  ...[5, 10, 20, 30, 40, 50, 60, 70, 80, 1000].map((durationMs, i) =>
    record(
      i < 6
        ? { durationMs, outcome: 'error', status: 502, code: 'upstream_failed' }
        : i < 8
          ? { durationMs, outcome: 'refused', status: 422, code: 'invalid_arguments' }
          : i < 9
            ? { durationMs, outcome: 'error', status: 504, code: 'timeout' }
            : { durationMs },
      at,
    ),
  ),
  record({ function: 'book_table', deferred: true, durationMs: 3 }, at),
  record({ function: 'book_table', kind: 'deferred', followUp: 'sent', durationMs: 900 }, at),
  record({ function: 'book_table', deferred: true, durationMs: 4 }, at),
  record(
    {
      function: 'book_table',
      kind: 'deferred',
      outcome: 'error',
      status: 500,
      code: 'timeout',
      followUp: 'failed',
      durationMs: 30_000,
    },
    at,
  ),
  record({ function: 'book_table', repeated: true, durationMs: 2 }, at),
  record({ function: 'book_table', kind: 'approval_ask', status: 202, durationMs: 6 }, at),
  record({ function: 'book_table', kind: 'approval_ask', status: 202, durationMs: 8 }, at),
  record({ function: 'book_table', kind: 'approval_ask', status: 202, durationMs: 7 }, at),
  record({ function: 'book_table', kind: 'approval_decision', code: 'approved', durationMs: 0 }, at),
  record({ function: 'book_table', kind: 'approval_decision', code: 'expired', durationMs: 0 }, at),
  record({ function: 'book_table', kind: 'approval_decision', code: 'denied', durationMs: 0 }, at),
  record({ function: 'book_table', kind: 'approval_run', followUp: 'sent', durationMs: 12 }, at),
  record({ account: 'bistro', durationMs: 7, version: 'v1a2b3' }, at),
  record({ account: 'bistro', durationMs: 9, version: 'v1a2b3' }, at),
  record({ account: 'bistro', durationMs: 11, version: 'v9f8e7' }, at),
];
