// The metrics option's record sink (src/record.ts `setRecordSink`): each record is one Workers
// Analytics Engine data point (CALL_RECORDS; writeDataPoint returns at once, nothing is awaited),
// and is added to this isolate's minute buckets, which a flush after the answer hands to the
// FunctionHealth Durable Object (FUNCTION_HEALTH) for the alert rules. While a flush is in flight,
// new records wait for the next one: one Durable Object request carries every record of its time.
// A missing or failing binding never changes a call: it is logged once per isolate.
import { createLogger } from '../log.ts';
import { type CallRecord, dataPointOf, type RecordSink } from '../record.ts';
import { createBucketBuffer } from './buckets.ts';
import type { FunctionHealth } from './health.ts';
import { HEALTH_INSTANCE } from './health.ts';

/** The bindings the sink reads (wrangler.toml). */
export interface MetricsBindings {
  CALL_RECORDS?: AnalyticsEngineDataset;
  FUNCTION_HEALTH?: DurableObjectNamespace<FunctionHealth>;
}

/** A sink and what the tests await: every flush started so far, done. */
export interface MetricsSink {
  sink: RecordSink;
  flushed(): Promise<void>;
}

const BINDING_HINTS = {
  CALL_RECORDS: 'add [[analytics_engine_datasets]] binding = "CALL_RECORDS" to wrangler.toml: records are not kept',
  FUNCTION_HEALTH: 'add the FunctionHealth Durable Object as FUNCTION_HEALTH to wrangler.toml: alerts see no calls',
} as const;

/** How long a flush waits for more records after the first (docs/observability.md "Costs at 500 accounts"). */
export const FLUSH_DELAY_MS: number = 1000;

/**
 * A record sink writing to `env`'s bindings; a flush waits `flushDelayMs` for more records.
 * @example setRecordSink(createMetricsSink().sink)
 */
export const createMetricsSink = ({ flushDelayMs = FLUSH_DELAY_MS }: { flushDelayMs?: number } = {}): MetricsSink => {
  const warned = new Set<string>();
  const warnOnce = (event: string, binding: keyof typeof BINDING_HINTS, error?: unknown) => {
    if (warned.has(event + binding)) return;
    warned.add(event + binding);
    const cause = error instanceof Error ? { error: error.name } : {};
    createLogger().warn(event, { binding, ...cause, hint: BINDING_HINTS[binding] });
  };
  const buffer = createBucketBuffer();
  // Whether a flush is waiting to take the buffer (then a record only joins it), and the last flush.
  let waiting = false;
  let last: Promise<void> = Promise.resolve();

  const flush = async (health: DurableObjectNamespace<FunctionHealth>, previous: Promise<void>): Promise<void> => {
    // After the answer (the call never waits for its figures), gathering what follows it, and
    // after the flush in flight: one request at a time carries everything since the last.
    await new Promise((resolve) => setTimeout(resolve, flushDelayMs));
    await previous;
    waiting = false;
    const batch = buffer.take();
    try {
      // A stub per flush: an I/O object is not shared between requests.
      await health.get(health.idFromName(HEALTH_INSTANCE)).add(batch);
    } catch (error) {
      // These figures are lost; the alert rules see fewer calls (never an incident of their own).
      warnOnce('metrics_flush_failed', 'FUNCTION_HEALTH', error);
    }
  };

  const sink: RecordSink = (record: CallRecord, env, ctx) => {
    const bindings = (env ?? {}) as MetricsBindings;
    const dataset = bindings.CALL_RECORDS;
    if (!dataset) warnOnce('metrics_unbound', 'CALL_RECORDS');
    else {
      try {
        dataset.writeDataPoint(dataPointOf(record));
      } catch (error) {
        warnOnce('metrics_write_failed', 'CALL_RECORDS', error);
      }
    }
    const health = bindings.FUNCTION_HEALTH;
    if (!health) return warnOnce('metrics_unbound', 'FUNCTION_HEALTH');
    buffer.add(record, Date.now());
    if (waiting) return;
    // Only the call that starts a flush holds it open (waitUntil); the others' records join it.
    waiting = true;
    last = flush(health, last);
    ctx?.waitUntil(last);
  };
  return {
    sink,
    flushed: async () => {
      for (let seen: Promise<void> | undefined; seen !== last; ) {
        seen = last;
        await seen;
      }
    },
  };
};
