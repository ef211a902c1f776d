// The record on the call's span (docs/observability.md "Traces"): with Workers traces on, the
// metrics option's sink attaches what the record holds to the invocation's span. Part of the
// option, so a Worker without it bundles none of this.
import * as workers from 'cloudflare:workers';
import type { CallRecord } from '../record.ts';

/** The runtime's span of an invocation, as much of it as a record needs (workers-types' `Span`). */
export interface RecordSpan {
  readonly isTraced: boolean;
  setAttributes(attributes: Record<string, string | undefined>): unknown;
}

/** Where the invocation's span is found (workers-types' `Tracing`). */
export interface RecordTracing {
  getActiveSpan(): RecordSpan | undefined;
}

/**
 * The runtime's tracing, `import { tracing } from 'cloudflare:workers'`, read once per isolate
 * (absent on a runtime without it). Not `ctx.tracing`: that getter makes a new object for every
 * request; a V8 profile under load put the look-up at 10 µs of profiled time per call through it,
 * 6 through this (docs/performance.md "Reading the results").
 */
export const RUNTIME_TRACING: RecordTracing | undefined = (workers as { tracing?: RecordTracing }).tracing;

/** The record's fields a span carries, each as `agent_functions.<field>`, in this order. */
const TRACED = ['account', 'function', 'transport', 'kind', 'outcome', 'code', 'version'] as const;
const ATTRIBUTE_NAMES = TRACED.map((field) => `agent_functions.${field}`);

/**
 * Attaches the record's account, function, transport, kind, outcome, code and version to the
 * invocation's span when the runtime traces it: never arguments, never anything a record does not
 * hold. For a call over HTTP or MCP only, one per request; a batch of queue messages or a
 * workflow's steps share one span. Never changes the call.
 * @example traceRecord(record, RUNTIME_TRACING)
 */
export const traceRecord = (record: CallRecord, tracing: RecordTracing | undefined): void => {
  if (record.transport !== 'http' && record.transport !== 'mcp') return;
  try {
    const span = tracing?.getActiveSpan();
    // Checked first: an untraced request costs no attributes object.
    if (!span?.isTraced) return;
    const attributes: Record<string, string | undefined> = {};
    for (let i = 0; i < TRACED.length; i++) {
      attributes[ATTRIBUTE_NAMES[i] as string] = record[TRACED[i] as (typeof TRACED)[number]] ?? undefined;
    }
    span.setAttributes(attributes);
  } catch {
    // A runtime without tracing, or one that refuses the attributes: the call is what matters.
  }
};
