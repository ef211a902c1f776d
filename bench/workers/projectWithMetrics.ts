// Benchmark entry: the project Worker with the metrics option on (BENCH_METRICS true) or off. The
// framework observes every call itself (src/record.ts), so the two builds differ by the metrics
// option's sink alone: the Analytics Engine write and the buffered flush to FunctionHealth
// (bench/src/metrics.ts).
import type { Env } from 'agent-functions';
import { callMetrics } from 'agent-functions/metrics';
import { createWorker } from 'agent-functions/worker';
import { functions } from './projectFunctions.ts';

export { FunctionHealth } from 'agent-functions/metrics';

// Replaced at build time (`--define BENCH_METRICS:true`); the typeof guard keeps an unbuilt import working.
declare const BENCH_METRICS: boolean;

export default createWorker({
  functions,
  ...(typeof BENCH_METRICS === 'boolean' && BENCH_METRICS ? { metrics: callMetrics() } : {}),
}) satisfies ExportedHandler<Env>;
