// Part 1f: the metrics option (agent-functions/metrics). A call with metrics on against the same
// call with metrics off (bench/workers/projectWithMetrics.ts built both ways): p50 over
// interleaved load rounds, and CPU per call inside the isolate; then one alert evaluation over
// 500 accounts x 10 functions (bench/workers/alertsScale.ts), its workerd CPU and wall time.
import { functionKey } from 'agent-functions/worker';
import { ALERT_ACCOUNTS, ALERT_FUNCTIONS } from '../workers/alertsScaleSize.ts';
import { QUOTE_FUNCTION } from '../workers/quote.ts';
import type { BuiltWorker } from './buildWorker.ts';
import { VALID_BODY } from './invocation.ts';
import { measureIsolateCpu } from './isolateCpu.ts';
import { type LoadResult, loadTest } from './loadTest.ts';
import { BENCH_SECRET, datasets, serveWorker } from './serveWorker.ts';
import { mainThreadCpuNs, workerdChildren } from './workerdCpu.ts';

/** The bindings of a Worker with metrics on. */
const METRICS_BINDINGS = {
  durableObjects: { FUNCTION_HEALTH: 'FunctionHealth' },
  analyticsEngineDatasets: { CALL_RECORDS: 'agent_functions_calls' },
};

/** Part 1f's results. */
export interface MetricsResults {
  latency: { off: LoadResult[]; on: LoadResult[] };
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

const latency = async (
  off: BuiltWorker,
  on: BuiltWorker,
  options: { rounds: number; seconds: number; connections: number; warmupSeconds: number },
  progress: (line: string) => void,
): Promise<MetricsResults['latency']> => {
  const served = {
    off: await serveWorker(off.scriptPath),
    on: await serveWorker(on.scriptPath, METRICS_BINDINGS),
  };
  const key = await functionKey(BENCH_SECRET, QUOTE_FUNCTION);
  const results: MetricsResults['latency'] = { off: [], on: [] };
  try {
    const run = (id: 'off' | 'on', seconds: number) =>
      loadTest(
        {
          url: new URL(`/functions/${QUOTE_FUNCTION}?key=${key}`, served[id].url).href,
          body: VALID_BODY,
          expectStatus: 200,
        },
        { connections: options.connections, seconds },
      );
    for (const id of ['off', 'on'] as const) await run(id, options.warmupSeconds);
    for (let round = 1; round <= options.rounds; round++) {
      for (const id of round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
        const result = await run(id, options.seconds);
        if (result.unexpected > 0) throw new Error(`metrics ${id}: ${result.unexpected} answers were wrong`);
        results[id].push(result);
      }
      progress(`metrics round ${round}/${options.rounds} done`);
    }
  } finally {
    await served.off.stop();
    await served.on.stop();
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
  const results = {
    latency: await latency(off, on, settings, progress),
    cpu: { off: [] as number[], on: [] as number[] },
    evaluation: await evaluation(alerts),
  };
  progress('metrics: CPU per call inside each isolate, alternating batches');
  const key = await functionKey(BENCH_SECRET, QUOTE_FUNCTION);
  const cpu = await measureIsolateCpu(
    { off: off.scriptPath, on: on.scriptPath },
    { url: `https://bench.example/functions/${QUOTE_FUNCTION}?key=${key}`, body: VALID_BODY, expectStatus: 200 },
    settings.cpuBatches,
    settings.cpuCalls,
    {
      off: { exports: ['FunctionHealth'] },
      on: {
        exports: ['FunctionHealth'],
        options: {
          durableObjects: { FUNCTION_HEALTH: { className: 'FunctionHealth', useSQLite: true } },
          analyticsEngineDatasets: datasets(METRICS_BINDINGS.analyticsEngineDatasets),
        },
      },
    },
  );
  results.cpu = { off: cpu.off ?? [], on: cpu.on ?? [] };
  return results;
};
