// What the metrics suites share: a record of a call, a fake Analytics Engine dataset (miniflare's
// keeps nothing it could be read back from), the FunctionHealth namespace scoped to one test (the
// suites share an isolate and its Durable Objects), the log's lines, and the Worker's cron.
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import type { Env } from '../../env.ts';
import { setLogSink } from '../../log.ts';
import type { FunctionHealth } from '../../metrics/health.ts';
import type { CallRecord } from '../../record.ts';

/** A call's record: `track_parcel` in account `client-a`, ok, unless `over` says otherwise. */
export const recordOf = (over: Partial<CallRecord> = {}): CallRecord => ({
  account: 'client-a',
  function: 'track_parcel',
  transport: 'http',
  kind: 'call',
  outcome: 'ok',
  status: 200,
  durationMs: 12,
  requestId: crypto.randomUUID(),
  ...over,
});

/** A failed call's record with `code`. */
export const failedOf = (code = 'store_unavailable', over: Partial<CallRecord> = {}): CallRecord =>
  recordOf({ outcome: 'error', status: 502, code, ...over });

/** An Analytics Engine dataset keeping what is written, or throwing on every write when `failing`. */
export const fakeDataset = (failing = false) => {
  const points: AnalyticsEngineDataPoint[] = [];
  const dataset: AnalyticsEngineDataset = {
    writeDataPoint: (point) => {
      if (failing) throw new Error('dataset unavailable');
      if (point) points.push(point);
    },
  };
  return { dataset, points };
};

/** The test env's FUNCTION_HEALTH, its instances named apart from every other test's. */
export const scopedHealth = (scope = crypto.randomUUID()): DurableObjectNamespace<FunctionHealth> => {
  const real = (env as Env).FUNCTION_HEALTH as DurableObjectNamespace<FunctionHealth>;
  return new Proxy(real, {
    get(target, property) {
      if (property === 'idFromName') return (name: string) => target.idFromName(`${scope}:${name}`);
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
};

/** The JSON lines logged while `run` ran. */
export const logged = async <T>(run: () => Promise<T> | T): Promise<{ value: T; lines: Record<string, unknown>[] }> => {
  const lines: Record<string, unknown>[] = [];
  const previous = setLogSink((line) => lines.push(JSON.parse(line)));
  try {
    return { value: await run(), lines };
  } finally {
    setLogSink(previous);
  }
};

/** Runs a Worker's cron handler at `at` (milliseconds) and waits for what it left running. */
export const tick = async (
  worker: { scheduled?: (c: ScheduledController, e: Env, x: ExecutionContext) => Promise<void> },
  environment: Env,
  at: number,
): Promise<void> => {
  const ctx = createExecutionContext();
  const controller = { scheduledTime: at, cron: '* * * * *', noRetry: () => {} } as ScheduledController;
  await worker.scheduled?.(controller, environment, ctx);
  await waitOnExecutionContext(ctx);
};
