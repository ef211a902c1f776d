// The one record of every call of a function and every event delivery (docs/observability.md): what
// the `invocation` log line carries, what the metrics option writes to Workers Analytics Engine and
// what the CLI's readers (dev's log, tail, the console, stats) parse. Made only by `observe` below;
// the features (HTTP, MCP, deferred work, approval, events) hand it their outcome and never build a
// line of their own. It holds no arguments, contact or conversation ids, message texts or keys.
import type { Logger } from './log.ts';

/** How the call reached the Worker. */
export const TRANSPORTS = ['http', 'mcp', 'workflow', 'queue'] as const;
export type Transport = (typeof TRANSPORTS)[number];

/**
 * What ran: a call (answered now), deferred work (a `later` call's work in its workflow), an
 * approval's ask (the call that opened it), decision (approved, denied or expired: the code says
 * which) or run (the approved function's work), or an event delivery's handler.
 */
export const RECORD_KINDS = ['call', 'deferred', 'approval_ask', 'approval_decision', 'approval_run', 'event'] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

/** How it ended: `ok`, `refused` (a 4xx the caller can act on) or `error` (5xx, a timeout, a throw). */
export const OUTCOMES = ['ok', 'refused', 'error'] as const;
export type RecordOutcome = (typeof OUTCOMES)[number];

/**
 * The one record of one call or delivery. A type alias rather than an interface, so the record is
 * itself the log line's fields (LogFields) and is logged without a copy.
 */
export type CallRecord = {
  /** The account the call acted in; `null` when it was refused before one was known (a 401, an unknown account). */
  account: string | null;
  /** The function's name, or the event's type; `null` for a name the Worker does not serve (never the caller's text). */
  function: string | null;
  transport: Transport;
  kind: RecordKind;
  outcome: RecordOutcome;
  /** The answer's HTTP status (200 when ok). */
  status: number;
  /** The refusal's or error's code (`invalid_arguments`, `timeout`, ...); for an approval decision `approved`, `denied` or `expired`; absent when ok. */
  code?: string | undefined;
  /** From arrival to answer, in milliseconds. */
  durationMs: number;
  /** A short hash of the function's manifest, what sync registered (src/registry.ts); absent for events and unknown names. */
  version?: string | undefined;
  /** A write answered from the conversation's ledger without running (docs/functions.md "Calls that repeat"). */
  repeated?: boolean | undefined;
  /** A `later` call whose work was deferred (it answered with the interim). */
  deferred?: boolean | undefined;
  /** Deferred or approved work's follow-up message: sent, or failed to send. */
  followUp?: 'sent' | 'failed' | undefined;
  /** The request id, to join the record to its log lines (random, names nobody). */
  requestId: string;
};

/**
 * What a feature notes of the call it runs, for the call's one record (a repeat answered from the
 * ledger, a deferral, an approval's ask): the transport hands the record it is building to the
 * pipeline as `CallSetup.mark`, the feature sets these, and settle writes the record when the call
 * ends. A feature never builds a record of its own.
 * @example if (call.mark) call.mark.repeated = true
 */
export type CallMark = Pick<CallRecord, 'kind' | 'repeated' | 'deferred'>;

/**
 * A record being built for a call that just arrived: no account or function yet (the transport
 * fills them in once they are known). The outcome, status and duration are the call's end's
 * (`closeRecord`); the optional fields are set only when they say something, so a Worker's records
 * cost no more than they hold.
 * @example const record = openRecord('http', requestId)
 */
export const openRecord = (transport: Transport, requestId: string, kind: RecordKind = 'call'): CallRecord => ({
  account: null,
  function: null,
  transport,
  kind,
  outcome: 'ok',
  status: 200,
  durationMs: 0,
  requestId,
});

/** `ok` for 200, `error` for a 5xx, `refused` for any other status. */
export const outcomeOf = (status: number): RecordOutcome =>
  status === 200 ? 'ok' : status >= 500 ? 'error' : 'refused';

/**
 * Ends `record` with the answer's status and code (none when ok), timed from `started`; returns it.
 * @example observe(log, closeRecord(record, 422, 'invalid_arguments', arrivedAt))
 */
export const closeRecord = (
  record: CallRecord,
  status: number,
  code: string | undefined,
  started: number,
): CallRecord => {
  record.outcome = outcomeOf(status);
  record.status = status;
  if (code !== undefined) record.code = code;
  record.durationMs = Date.now() - started;
  return record;
};

/** The log event whose fields are a CallRecord: one line per record. */
export const RECORD_EVENT = 'invocation';

/** The context of the call or delivery a record is of: its waitUntil, which holds the figures' flush. */
export interface RecordContext {
  waitUntil(promise: Promise<unknown>): void;
}

/** Where records go besides the log (the metrics option's writer); set once by createWorker. */
export type RecordSink = (record: CallRecord, env: unknown, ctx: RecordContext | undefined) => void;

let sink: RecordSink | undefined;

/** Sets where records go besides the log (the metrics option), or none; returns the previous one. */
export const setRecordSink = (next: RecordSink | undefined): RecordSink | undefined => {
  const previous = sink;
  sink = next;
  return previous;
};

/**
 * The observation point: hands `record` to the sink, then logs it as the `invocation` line on
 * `log`. A sink that throws never changes the call. Nothing may change `record` after this.
 * @example observe(log, { account: 'default', function: 'lookup_warranty', transport: 'http', kind: 'call', outcome: 'ok', status: 200, durationMs: 3, requestId }, env, ctx)
 */
export const observe = (log: Logger, record: CallRecord, env?: unknown, ctx?: RecordContext): void => {
  try {
    sink?.(record, env, ctx);
  } catch {
    // The sink logs its own failures once per isolate; a record is never worth a failed call.
  }
  log.info(RECORD_EVENT, record);
};

/**
 * How a record is laid out as one Workers Analytics Engine data point: the writer (the metrics
 * option) and the reader (`npm run stats`' SQL) both take the columns from here, so they never
 * disagree. The index is the account ('' when none), so figures sample per account.
 */
export const RECORD_BLOBS = [
  'account',
  'function',
  'transport',
  'kind',
  'outcome',
  'code',
  'version',
  'followUp',
] as const;
/** Numbers of a data point: `double1` is the duration, then the status and two 0/1 flags. */
export const RECORD_DOUBLES = ['durationMs', 'status', 'repeated', 'deferred'] as const;

/** The columns' SQL names (`blob1` ...) by field, for the stats query. */
export const recordColumn = (field: (typeof RECORD_BLOBS)[number] | (typeof RECORD_DOUBLES)[number]): string => {
  const blob = (RECORD_BLOBS as readonly string[]).indexOf(field);
  return blob >= 0 ? `blob${blob + 1}` : `double${(RECORD_DOUBLES as readonly string[]).indexOf(field) + 1}`;
};

/** One data point of `record` (AnalyticsEngineDataPoint's shape): index, blobs and doubles in the layout's order. */
export const dataPointOf = (record: CallRecord): { indexes: string[]; blobs: string[]; doubles: number[] } => ({
  indexes: [record.account ?? ''],
  blobs: [
    record.account ?? '',
    record.function ?? '',
    record.transport,
    record.kind,
    record.outcome,
    record.code ?? '',
    record.version ?? '',
    record.followUp ?? '',
  ],
  doubles: [record.durationMs, record.status, record.repeated ? 1 : 0, record.deferred ? 1 : 0],
});
