// The record on the call's span (docs/observability.md "Traces"): with Workers traces on, the
// metrics option's sink attaches what the record holds to the invocation's span. Part of the
// option, so a Worker without it bundles none of this.
import type { CallRecord, RecordContext } from '../record.ts';

/** The record's fields a span carries, each as `agent_functions.<field>`, in this order. */
const TRACED = ['account', 'function', 'transport', 'kind', 'outcome', 'code', 'version'] as const;

/**
 * Attaches the record's account, function, transport, kind, outcome, code and version to the
 * invocation's span when the runtime traces it: never arguments, never anything a record does not
 * hold. For a call over HTTP or MCP only, one per request; a batch of queue messages or a
 * workflow's steps share one span. Never changes the call.
 * @example traceRecord(record, ctx)
 */
export const traceRecord = (record: CallRecord, ctx: RecordContext | undefined): void => {
  if (record.transport !== 'http' && record.transport !== 'mcp') return;
  try {
    const span = ctx?.tracing?.getActiveSpan();
    // Checked first: an untraced request costs no attributes object.
    if (!span?.isTraced) return;
    const attributes: Record<string, string | undefined> = {};
    for (const field of TRACED) attributes[`agent_functions.${field}`] = record[field] ?? undefined;
    span.setAttributes(attributes);
  } catch {
    // A runtime without tracing, or one that refuses the attributes: the call is what matters.
  }
};
