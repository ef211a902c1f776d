// What the local Worker itself logged, read from wrangler dev's output as it passes through dev:
// the Worker's own JSON lines (src/log.ts) of each call it answered, whoever made it (the console,
// the local platform, curl, an MCP client), of each queued delivery its handler took, and of a
// deferred call's work and follow-up (src/conversations/), which carry the call's request id. The
// console joins them to what the local platform saw.
import { isCallRecord, RECORD_EVENT, recordOfLine } from 'agent-functions/internal';
import type { CallRecord } from 'agent-functions/worker';

/** One call the Worker answered (over HTTP or MCP), as its record, the `invocation` line, says. */
export type WorkerCall = {
  kind: 'invocation';
  at: number;
  /** The function called; `(unknown)` for a refusal before a served name was known. */
  name: string;
  /** The account the Worker acted in; null when it refused the call before one was known (src/record.ts). */
  account: CallRecord['account'];
} & Pick<CallRecord, 'requestId' | 'status' | 'outcome' | 'durationMs'>;

/** What the Worker's handler made of one queued delivery (event_handled, event_failed, ...). */
export interface WorkerHandling {
  kind: 'handling';
  at: number;
  /** The Worker's id of the delivery: `id:<event id>` when the event had one. */
  deliveryId: string;
  eventType: string;
  event: string;
  /** The account of the events endpoint that took it (ids of deliveries are unique within an account only). */
  account?: string;
}

/** A step of a deferred call (call_deferred, follow_up_sent, deferred_failed, ...), by the call's request id. */
export interface WorkerDeferred {
  kind: 'deferred';
  at: number;
  requestId: string;
  event: DeferredEvent;
}

export type WorkerLine = WorkerCall | WorkerHandling | WorkerDeferred;

/** How many lines are kept, oldest dropped. */
export const WORKER_LOG_LIMIT = 500;

/** The events of src/events/consumer.ts that end a delivery's run. */
const HANDLING = new Set([
  'event_handled',
  'event_failed',
  'event_duplicate',
  'event_invalid_payload',
  'event_unknown_type',
]);

/**
 * The events of src/conversations/ about a deferred call: its deferral, its work's end, its
 * follow-up; an MCP call whose work became a task (no follow-up: its client reads the result); and
 * a write that repeated an earlier call of its conversation, answered with that call's stored
 * answer without running (call_repeated, docs/functions.md "Calls that repeat").
 */
export const DEFERRED_EVENTS = [
  'call_repeated',
  'call_deferred',
  'call_deferred_repeat',
  'call_as_task',
  'task_failed',
  'deferred_refused',
  'deferred_failed',
  'deferred_gone',
  'follow_up_sent',
  'follow_up_opted_out',
  'follow_up_cancelled',
  'follow_up_not_repeated',
  'follow_up_refused',
  'follow_up_ambiguous',
  'follow_up_failed',
  // An approval (src/approval/): asked in the call, settled in its workflow, which logs the follow-up too.
  'approval_asked',
  'approval_settled',
] as const;
export type DeferredEvent = (typeof DEFERRED_EVENTS)[number];
const DEFERRED = new Set<string>(DEFERRED_EVENTS);

// biome-ignore lint/suspicious/noControlCharactersInRegex: wrangler's colour codes
const COLOURS = /\x1b\[[0-9;]*m/g;

/** A line's JSON fields, when it is one of the Worker's structured lines (src/log.ts). */
const fieldsOf = (raw: string): Record<string, unknown> | undefined => {
  const text = raw.replace(COLOURS, '').trim();
  const start = text.indexOf('{"level"');
  if (start < 0) return undefined;
  try {
    return JSON.parse(text.slice(start)) as Record<string, unknown>;
  } catch {
    return undefined;
  }
};

const lineOf = (fields: Record<string, unknown>, at: number): WorkerLine | undefined => {
  const { event } = fields;
  const record = recordOfLine(fields);
  // Deferred work, an approval's decision and run, and event deliveries are records too, but no call
  // anyone made: their steps are read below from their own lines.
  if (record) {
    if (!isCallRecord(record)) return undefined;
    const { requestId, status, outcome, durationMs, account } = record;
    // A name the Worker does not serve is never recorded (src/record.ts), nor one refused before it was read.
    return {
      kind: 'invocation',
      at,
      name: record.function ?? '(unknown)',
      account,
      requestId,
      status,
      outcome,
      durationMs,
    };
  }
  if (typeof event === 'string' && HANDLING.has(event) && typeof fields.deliveryId === 'string') {
    return {
      kind: 'handling',
      at,
      deliveryId: fields.deliveryId,
      eventType: String(fields.eventType ?? ''),
      event,
      ...(typeof fields.account === 'string' ? { account: fields.account } : {}),
    };
  }
  if (typeof event === 'string' && DEFERRED.has(event) && typeof fields.requestId === 'string') {
    return { kind: 'deferred', at, requestId: fields.requestId, event: event as DeferredEvent };
  }
  return undefined;
};

/**
 * A reader of the Worker's output, fed chunk by chunk (a line may be split between chunks). Each
 * `invocation` line's fields also go to `onRecord` (dev's record ring for the figures, records.ts).
 * @example const log = createWorkerLog(); child.stdout.on('data', log.feed); log.lines()
 */
export const createWorkerLog = (
  limit = WORKER_LOG_LIMIT,
  onRecord?: (fields: Record<string, unknown>, at: number) => void,
) => {
  const lines: WorkerLine[] = [];
  let partial = '';
  return {
    feed(chunk: string | Buffer): void {
      const text = partial + chunk.toString();
      const complete = text.split('\n');
      partial = complete.pop() ?? '';
      // A line that never ends is not kept past 64 KiB.
      if (partial.length > 64 * 1024) partial = '';
      for (const raw of complete) {
        const fields = fieldsOf(raw);
        if (!fields) continue;
        const at = Date.now();
        if (fields.event === RECORD_EVENT) onRecord?.(fields, at);
        const line = lineOf(fields, at);
        if (!line) continue;
        lines.push(line);
        if (lines.length > limit) lines.shift();
      }
    },
    /** Every line kept, oldest first. */
    lines: (): WorkerLine[] => [...lines],
  };
};

export type WorkerLog = ReturnType<typeof createWorkerLog>;
