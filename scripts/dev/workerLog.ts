// What the local Worker itself logged, read from wrangler dev's output as it passes through dev:
// the Worker's own JSON lines (src/log.ts) of each call it answered, whoever made it (the console,
// the local platform, curl, an MCP client), of each queued delivery its handler took, and of a
// deferred call's work and follow-up (src/conversations/), which carry the call's request id. The
// console joins them to what the local platform saw.

/** One call the Worker answered, as its `invocation` line says. */
export interface WorkerCall {
  kind: 'invocation';
  at: number;
  name: string;
  requestId: string;
  status: number;
  outcome: string;
  durationMs: number;
  /** The account the Worker acted in; null when it refused the call before one was known (src/record.ts). */
  account: string | null;
}

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

const lineOf = (raw: string, at: number): WorkerLine | undefined => {
  const text = raw.replace(COLOURS, '').trim();
  const start = text.indexOf('{"level"');
  if (start < 0) return undefined;
  let fields: Record<string, unknown>;
  try {
    fields = JSON.parse(text.slice(start)) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const { event } = fields;
  if (event === 'invocation' && typeof fields.requestId === 'string') {
    return {
      kind: 'invocation',
      at,
      // A name the Worker does not serve is never logged (src/record.ts): nor is one refused before it was read.
      name: typeof fields.function === 'string' ? fields.function : '(unknown)',
      account: typeof fields.account === 'string' ? fields.account : null,
      requestId: fields.requestId,
      status: Number(fields.status) || 0,
      outcome: String(fields.outcome ?? ''),
      durationMs: Number(fields.durationMs) || 0,
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
 * A reader of the Worker's output, fed chunk by chunk (a line may be split between chunks).
 * @example const log = createWorkerLog(); child.stdout.on('data', log.feed); log.lines()
 */
export const createWorkerLog = (limit = WORKER_LOG_LIMIT) => {
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
        const line = lineOf(raw, Date.now());
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
