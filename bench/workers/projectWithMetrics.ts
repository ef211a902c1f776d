// Benchmark entry: the project Worker with the metrics option on (BENCH_METRICS true) or off, each
// call observed once more around the framework's own answer, so both builds pay for the same
// record and log line and their difference is the metrics option's sink alone: the Analytics
// Engine write and the buffered flush to FunctionHealth (bench/src/metrics.ts). Once the framework
// observes every call itself (src/record.ts), the extra observe can go.
import type { Env } from 'agent-functions';
import { type CallRecord, observe } from 'agent-functions/internal';
import { callMetrics } from 'agent-functions/metrics';
import { createWorker } from 'agent-functions/worker';
import { functions } from './projectFunctions.ts';
import { QUOTE_FUNCTION } from './quote.ts';

export { FunctionHealth } from 'agent-functions/metrics';

// Replaced at build time (`--define BENCH_METRICS:true`); the typeof guard keeps an unbuilt import working.
declare const BENCH_METRICS: boolean;

const worker = createWorker({
  functions,
  ...(typeof BENCH_METRICS === 'boolean' && BENCH_METRICS ? { metrics: callMetrics() } : {}),
});

const silent = { info: () => {}, warn: () => {}, error: () => {} };

export default {
  fetch: async (request: Request, env: Env, ctx: ExecutionContext) => {
    const arrivedAt = Date.now();
    const response = await worker.fetch(request, env, ctx);
    const record: CallRecord = {
      account: 'default',
      function: QUOTE_FUNCTION,
      transport: 'http',
      kind: 'call',
      outcome: response.ok ? 'ok' : response.status < 500 ? 'refused' : 'error',
      status: response.status,
      durationMs: Date.now() - arrivedAt,
      requestId: 'bench',
    };
    observe(silent, record, env, ctx);
    return response;
  },
} satisfies ExportedHandler<Env>;
