// Benchmark entry: one alert evaluation over 500 accounts x 10 functions (bench/src/metrics.ts).
// POST /bench/fill stores five minutes of figures for every one of them (one in ten failing), and
// GET /bench/evaluate runs the Worker's cron handler once, as the cron trigger would.
import type { Env } from 'agent-functions';
import { callMetrics, type FunctionHealth } from 'agent-functions/metrics';
import { createWorker } from 'agent-functions/worker';
import { ALERT_ACCOUNTS, ALERT_FUNCTIONS } from './alertsScaleSize.ts';
import { functions } from './projectFunctions.ts';

export { FunctionHealth } from 'agent-functions/metrics';

const worker = createWorker({ functions, metrics: callMetrics() });

const fill = async (health: DurableObjectNamespace<FunctionHealth>, now: number): Promise<number> => {
  const stub = health.get(health.idFromName('health'));
  const minute = Math.floor(now / 60_000);
  let buckets = 0;
  for (let a = 1; a <= ALERT_ACCOUNTS; a++) {
    const batch = [];
    for (let f = 1; f <= ALERT_FUNCTIONS; f++) {
      for (let m = 0; m < 5; m++) {
        const failing = (a * ALERT_FUNCTIONS + f) % 10 === 0;
        const errors = failing ? 4 : 0;
        batch.push({
          minute: minute - m,
          account: `client-${a}`,
          function: `function_${f}`,
          kind: 'call',
          calls: 10,
          ok: 10 - errors,
          refused: 0,
          errors,
          timeouts: 0,
          deferredFailures: 0,
          approvalExpiries: 0,
          codes: failing ? { upstream_unavailable: errors } : {},
        });
      }
    }
    await stub.add(batch);
    buckets += batch.length;
  }
  return buckets;
};

export default {
  fetch: async (request: Request, env: Env, ctx: ExecutionContext) => {
    const { pathname } = new URL(request.url);
    const health = env.FUNCTION_HEALTH as DurableObjectNamespace<FunctionHealth>;
    if (pathname === '/bench/fill') return Response.json({ buckets: await fill(health, Date.now()) });
    if (pathname === '/bench/evaluate') {
      const controller = { scheduledTime: Date.now(), cron: '* * * * *', noRetry: () => {} } as ScheduledController;
      await worker.scheduled?.(controller, env, ctx);
      const open = await health.get(health.idFromName('health')).open();
      return Response.json({ incidents: open.length });
    }
    return new Response('not found', { status: 404 });
  },
} satisfies ExportedHandler<Env>;
