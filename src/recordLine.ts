// A record read back from its `invocation` log line (src/record.ts): the one reader the CLI's
// readers share (dev's log, tail, the console, stats), so none restates the line's fields. Lenient
// about what a person cannot act on (a line of an older Worker has no transport, kind or version),
// strict about what would mislead: a line without a request id or a status is not a record.
import {
  type CallRecord,
  OUTCOMES,
  outcomeOf,
  RECORD_EVENT,
  RECORD_KINDS,
  type RecordKind,
  type RecordOutcome,
  TRANSPORTS,
  type Transport,
} from './record.ts';

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const oneOf = <T extends string>(values: readonly T[], value: unknown): T | undefined =>
  (values as readonly unknown[]).includes(value) ? (value as T) : undefined;

/**
 * The record a parsed log line carries, or undefined when it is not an `invocation` line.
 * @example recordOfLine(JSON.parse(line))?.function // 'quote_plan'
 */
export const recordOfLine = (fields: Record<string, unknown>): CallRecord | undefined => {
  const { status, requestId } = fields;
  if (fields.event !== RECORD_EVENT || typeof requestId !== 'string' || typeof status !== 'number') return undefined;
  const followUp = fields.followUp === 'sent' || fields.followUp === 'failed' ? fields.followUp : undefined;
  return {
    account: text(fields.account) ?? null,
    function: text(fields.function) ?? null,
    transport: oneOf<Transport>(TRANSPORTS, fields.transport) ?? 'http',
    kind: oneOf<RecordKind>(RECORD_KINDS, fields.kind) ?? 'call',
    outcome: oneOf<RecordOutcome>(OUTCOMES, fields.outcome) ?? outcomeOf(status),
    status,
    code: text(fields.code),
    durationMs: typeof fields.durationMs === 'number' ? fields.durationMs : 0,
    version: text(fields.version),
    repeated: fields.repeated === true ? true : undefined,
    deferred: fields.deferred === true ? true : undefined,
    followUp,
    requestId,
  };
};

/** Whether `record` is of a call a caller made (over HTTP or MCP), not work after it nor an event. */
export const isCallRecord = (record: CallRecord): boolean =>
  (record.transport === 'http' || record.transport === 'mcp') &&
  (record.kind === 'call' || record.kind === 'approval_ask');
