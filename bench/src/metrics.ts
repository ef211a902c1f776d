// Part 1f: the metrics option (agent-functions/metrics). A call with metrics on against the same
// call with metrics off (bench/workers/projectWithMetrics.ts built both ways): p50 of single calls
// sent to each in turn (alternateCalls.ts), and CPU per call inside the isolate; then one alert
// evaluation over 500 accounts x 10 functions (bench/workers/alertsScale.ts), its workerd CPU and
// wall time.
import { functionKey } from 'agent-functions/worker';
import { ALERT_ACCOUNTS, ALERT_FUNCTIONS } from '../workers/alertsScaleSize.ts';
import { QUOTE_FUNCTION } from '../workers/quote.ts';
import { alternateCalls } from './alternateCalls.ts';
import type { BuiltWorker } from './buildWorker.ts';
import { VALID_BODY } from './invocation.ts';
import { measureIsolateCpuBothWays } from './isolateCpu.ts';
import { BENCH_SECRET, datasets, serveWorker, serveWorkers } from './serveWorker.ts';
import { mainThreadCpuNs, workerdChildren } from './workerdCpu.ts';

/** The bindings of a Worker with metrics on. */
const METRICS_BINDINGS = {
  durableObjects: { FUNCTION_HEALTH: 'FunctionHealth' },
  analyticsEngineDatasets: { CALL_RECORDS: 'agent_functions_calls' },
};

/** Part 1f's results. */
export interface MetricsResults {
  /** Each side's p50 per block of alternating single calls, ms. */
  latency: { off: number[]; on: number[] };
  /** CPU microseconds per call, alternating batches. */
  cpu: { off: number[]; on: number[] };
  evaluation: {
    accounts: number;
    functions: number;
    buckets: number;
    incidents: number;
    /** workerd's CPU over the evaluation (the Worker's cron handler and the Durable Object), ms. */
    cpuMs: number;
    wallMs: number;
  };
}

/**
 * Each round of the settings is one workerd process serving both Workers (6 by default;
 * `--repeat` multiplies them), listed off-then-on in odd rounds and on-then-off in even ones: two
 * Workers of one process differ by up to 4% for the same bundle, one way or the other, from process
 * to process, so the rounds spread that over both sides. A round has 4 blocks of alternating calls
 * (a block's p50 is the middle of 500 calls by default) after its warm-up; the blocks' ratios are
 * read as the other rows read their rounds: the median, and its interval.
 */
const BLOCKS_PER_ROUND = 4;
const PAIRS_PER_SECOND = 250;
const WARMUP_PAIRS_PER_SECOND = 1000;
/**
 * CPU batches per batch of the settings (200 by default), in two processes with the Workers listed
 * in either order (isolateCpu.ts), for the same reason: a sink's cost is a few µs of a call's 180.
 */
const CPU_BATCHES_PER_BATCH = 5;

/** The two Workers' serving options, in the round's order. */
const bothWorkers = (off: BuiltWorker, on: BuiltWorker, onFirst: boolean) => {
  const workers = {
    off: { scriptPath: off.scriptPath },
    on: { scriptPath: on.scriptPath, options: METRICS_BINDINGS },
  };
  return onFirst ? { on: workers.on, off: workers.off } : workers;
};

/**
 * The p50 of a call with metrics on against off, one call in flight at a time: a call's own
 * latency, which the figures must not lengthen (nothing of theirs is awaited before the answer).
 * Under a closed loop at saturation a p50 is the inverse of throughput, which the CPU row measures.
 */
const latency = async (
  off: BuiltWorker,
  on: BuiltWorker,
  options: { rounds: number; seconds: number; warmupSeconds: number },
  progress: (line: string) => void,
): Promise<MetricsResults['latency']> => {
  const key = await functionKey(BENCH_SECRET, QUOTE_FUNCTION);
  const results: MetricsResults['latency'] = { off: [], on: [] };
  for (let round = 1; round <= options.rounds; round++) {
    // One workerd process for both: the calls take turns on one thread and one core.
    const served = await serveWorkers(bothWorkers(off, on, round % 2 === 0));
    const target = (id: 'off' | 'on') => ({
      url: new URL(`/functions/${QUOTE_FUNCTION}?key=${key}`, served.urls[id]).href,
      body: VALID_BODY,
      expectStatus: 200,
    });
    try {
      const blocks = await alternateCalls(target('off'), target('on'), {
        blocks: BLOCKS_PER_ROUND,
        pairs: Math.round(options.seconds * PAIRS_PER_SECOND),
        warmupPairs: Math.round(options.warmupSeconds * WARMUP_PAIRS_PER_SECOND),
      });
      results.off.push(...blocks.a);
      results.on.push(...blocks.b);
    } finally {
      await served.stop();
    }
    progress(`metrics round ${round}/${options.rounds} done`);
  }
  return results;
};

/** One evaluation over ALERT_ACCOUNTS x ALERT_FUNCTIONS, after storing five minutes of their figures. */
const evaluation = async (alerts: BuiltWorker): Promise<MetricsResults['evaluation']> => {
  const before = await workerdChildren();
  const served = await serveWorker(alerts.scriptPath, METRICS_BINDINGS);
  try {
    const pid = [...(await workerdChildren())].find((p) => !before.has(p));
    if (pid === undefined) throw new Error('no new workerd process');
    const filled = await fetch(new URL('/bench/fill', served.url), { method: 'POST' });
    const { buckets } = (await filled.json()) as { buckets: number };
    const cpuStart = await mainThreadCpuNs(pid);
    const wallStart = performance.now();
    const answer = await fetch(new URL('/bench/evaluate', served.url));
    const wallMs = performance.now() - wallStart;
    const cpuMs = ((await mainThreadCpuNs(pid)) - cpuStart) / 1e6;
    if (!answer.ok) throw new Error(`the evaluation answered ${answer.status}: ${await answer.text()}`);
    const { incidents } = (await answer.json()) as { incidents: number };
    return { accounts: ALERT_ACCOUNTS, functions: ALERT_FUNCTIONS, buckets, incidents, cpuMs, wallMs };
  } finally {
    await served.stop();
  }
};

/**
 * Measures part 1f.
 * @example await measureMetrics(built.projectMetricsOff, built.projectMetricsOn, built.alertsScale, settings)
 */
export const measureMetrics = async (
  off: BuiltWorker,
  on: BuiltWorker,
  alerts: BuiltWorker,
  settings: {
    rounds: number;
    seconds: number;
    connections: number;
    warmupSeconds: number;
    cpuBatches: number;
    cpuCalls: number;
  },
  progress: (line: string) => void = () => {},
): Promise<MetricsResults> => {
  const measured = { latency: await latency(off, on, settings, progress), evaluation: await evaluation(alerts) };
  progress('metrics: CPU per call inside each isolate, alternating batches');
  const key = await functionKey(BENCH_SECRET, QUOTE_FUNCTION);
  const extra = {
    off: { exports: ['FunctionHealth'] },
    on: {
      exports: ['FunctionHealth'],
      options: {
        durableObjects: { FUNCTION_HEALTH: { className: 'FunctionHealth', useSQLite: true } },
        analyticsEngineDatasets: datasets(METRICS_BINDINGS.analyticsEngineDatasets),
      },
    },
  };
  const cpu = await measureIsolateCpuBothWays(
    { off: off.scriptPath, on: on.scriptPath },
    { url: `https://bench.example/functions/${QUOTE_FUNCTION}?key=${key}`, body: VALID_BODY, expectStatus: 200 },
    settings.cpuBatches * CPU_BATCHES_PER_BATCH,
    settings.cpuCalls,
    extra,
  );
  return { ...measured, cpu: { off: cpu.off ?? [], on: cpu.on ?? [] } };
};
