// The metrics option's sink (src/metrics/sink.ts), fed through the one observation point
// (src/record.ts observe): one Analytics Engine data point per record, written without a wait; the
// alert figures buffered per isolate and flushed after the answer, coalesced while a flush is in
// flight; a missing or failing binding never changes the call and is logged once per isolate.
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it } from 'vitest';
import type { Env } from '../../env.ts';
import { createLogger } from '../../log.ts';
import type { Bucket } from '../../metrics/buckets.ts';
import { minuteOf } from '../../metrics/buckets.ts';
import type { FunctionHealth } from '../../metrics/health.ts';
import { createMetricsSink, FLUSH_DELAY_MS } from '../../metrics/sink.ts';
import { dataPointOf, observe, setRecordSink } from '../../record.ts';
import { failedOf, fakeDataset, logged, recordOf, scopedHealth } from './helpers.ts';

const log = createLogger({ requestId: 'sink-test' });
let previous: ReturnType<typeof setRecordSink>;
// No wait before a flush, unless a test measures it: each test awaits its flushes.
const install = (flushDelayMs = 0) => {
  const metrics = createMetricsSink({ flushDelayMs });
  previous = setRecordSink(metrics.sink);
  return metrics;
};
afterEach(() => {
  setRecordSink(previous);
});

/** A FUNCTION_HEALTH whose `add` is counted and can be held until `release()`. */
const countingHealth = () => {
  const batches: Bucket[][] = [];
  let hold: Promise<void> | undefined;
  let release = () => {};
  const stub = {
    add: async (batch: Bucket[]) => {
      batches.push(batch);
      await hold;
    },
  };
  const namespace = {
    idFromName: (name: string) => name,
    get: () => stub,
  } as unknown as DurableObjectNamespace<FunctionHealth>;
  return {
    namespace,
    batches,
    holdNext: () => {
      hold = new Promise((resolve) => {
        release = () => {
          hold = undefined;
          resolve();
        };
      });
    },
    release: () => release(),
  };
};

describe('the metrics sink', () => {
  it('writes one Analytics Engine data point per record, laid out by dataPointOf, before observe returns', () => {
    install();
    const { dataset, points } = fakeDataset();
    const records = [recordOf(), failedOf('timeout', { kind: 'deferred', transport: 'workflow' })];
    for (const record of records)
      observe(log, record, { CALL_RECORDS: dataset } satisfies Env, createExecutionContext());
    expect(points).toEqual(records.map(dataPointOf));
    expect(points[0]?.indexes).toEqual(['client-a']);
  });

  it("accepts miniflare's own bindings without a warning", async () => {
    const metrics = install();
    const { lines } = await logged(async () => {
      const bindings = { CALL_RECORDS: (env as Env).CALL_RECORDS, FUNCTION_HEALTH: scopedHealth() };
      observe(log, recordOf(), bindings, createExecutionContext());
      await metrics.flushed();
    });
    expect(lines.filter((line) => line.level !== 'info')).toEqual([]);
  });

  it('flushes the figures to FunctionHealth after the call, in one request for records of the same moment', async () => {
    const metrics = install();
    const health = countingHealth();
    const ctx = createExecutionContext();
    for (let i = 0; i < 50; i++) {
      observe(log, i % 5 === 0 ? failedOf() : recordOf(), { FUNCTION_HEALTH: health.namespace }, ctx);
    }
    // A refusal is the caller's doing: counted, but its code is not an error's.
    const refusal = recordOf({ outcome: 'refused', status: 422, code: 'invalid_arguments' });
    observe(log, refusal, { FUNCTION_HEALTH: health.namespace }, ctx);
    // Nothing reached the Durable Object while the calls ran: the flush waits for the answer.
    expect(health.batches).toEqual([]);
    await waitOnExecutionContext(ctx);
    expect(health.batches).toHaveLength(1);
    expect(health.batches[0]).toEqual([
      expect.objectContaining({
        account: 'client-a',
        function: 'track_parcel',
        kind: 'call',
        calls: 51,
        ok: 40,
        refused: 1,
        errors: 10,
        codes: { store_unavailable: 10 },
      }),
    ]);
    await metrics.flushed();
  });

  it('waits a second after a call before flushing, so the calls of that second share one request', async () => {
    const metrics = install(FLUSH_DELAY_MS);
    const health = countingHealth();
    const bindings = { FUNCTION_HEALTH: health.namespace };
    const started = Date.now();
    for (let i = 0; i < 5; i++) {
      observe(log, recordOf(), bindings, createExecutionContext());
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(health.batches).toEqual([]);
    await metrics.flushed();
    expect(Date.now() - started).toBeGreaterThanOrEqual(FLUSH_DELAY_MS);
    expect(health.batches).toEqual([[expect.objectContaining({ calls: 5 })]]);
  });

  it('gathers the records that arrive while a flush is in flight into the next one', async () => {
    const metrics = install();
    const health = countingHealth();
    health.holdNext();
    const bindings = { FUNCTION_HEALTH: health.namespace };
    observe(log, recordOf(), bindings, createExecutionContext());
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(health.batches).toHaveLength(1);
    // Ten calls while the first flush waits: they make one batch, sent when it is done.
    for (let i = 0; i < 10; i++) observe(log, failedOf('timeout'), bindings, createExecutionContext());
    expect(health.batches).toHaveLength(1);
    health.release();
    await metrics.flushed();
    expect(health.batches).toHaveLength(2);
    expect(health.batches[1]).toEqual([expect.objectContaining({ calls: 10, errors: 10, timeouts: 10 })]);
  });

  it('adds the flushed figures up in the Durable Object, per minute, account, function and kind', async () => {
    const metrics = install();
    const health = scopedHealth();
    const bindings = { FUNCTION_HEALTH: health };
    for (let i = 0; i < 3; i++) observe(log, recordOf(), bindings, createExecutionContext());
    await metrics.flushed();
    observe(log, failedOf(), bindings, createExecutionContext());
    observe(
      log,
      recordOf({ kind: 'approval_decision', outcome: 'refused', code: 'expired', status: 410 }),
      bindings,
      createExecutionContext(),
    );
    await metrics.flushed();
    const stub = health.get(health.idFromName('health'));
    const notices = await stub.evaluate(Date.now(), {
      project: { windowMinutes: 5, minCalls: 1, errorRate: 0.2, deferredFailures: 1, approvalExpiries: 1, off: false },
      accounts: {},
    });
    expect(notices.map((n) => [n.rule, n.figures.calls, n.figures.errors, n.figures.approvalExpiries])).toEqual([
      ['errors', 4, 1, 1],
      ['approvals', 4, 1, 1],
    ]);
    expect(minuteOf(notices[0]?.openedAt ?? 0)).toBe(minuteOf(Date.now()));
  });

  it('never changes a call when the bindings are missing, and says so once per isolate', async () => {
    const metrics = install();
    const { lines } = await logged(async () => {
      for (let i = 0; i < 100; i++) observe(log, recordOf(), {}, createExecutionContext());
      await metrics.flushed();
    });
    const warnings = lines.filter((line) => line.level === 'warn');
    expect(warnings.map((line) => [line.event, line.binding])).toEqual([
      ['metrics_unbound', 'CALL_RECORDS'],
      ['metrics_unbound', 'FUNCTION_HEALTH'],
    ]);
    expect(lines.filter((line) => line.event === 'invocation')).toHaveLength(100);
  });

  it('never changes a call when the bindings fail, and says so once per isolate', async () => {
    const metrics = install();
    const failing = {
      idFromName: (name: string) => name,
      get: () => ({ add: async () => Promise.reject(new Error('overloaded')) }),
    } as unknown as DurableObjectNamespace<FunctionHealth>;
    const { lines } = await logged(async () => {
      for (let i = 0; i < 20; i++) {
        observe(
          log,
          recordOf(),
          { CALL_RECORDS: fakeDataset(true).dataset, FUNCTION_HEALTH: failing },
          createExecutionContext(),
        );
        await metrics.flushed();
      }
    });
    expect(lines.filter((line) => line.level === 'warn').map((line) => line.event)).toEqual([
      'metrics_write_failed',
      'metrics_flush_failed',
    ]);
  });
});
