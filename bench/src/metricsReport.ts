// Part 1f's table and targets (bench/src/metrics.ts): a call with metrics on against metrics off
// (p50 <= 1.02x, CPU per call <= 1.03x), and one alert evaluation over 500 accounts x 10 functions
// within one cron invocation's CPU limit.
import type { MetricsResults } from './metrics.ts';
import { pairedRatio } from './stats.ts';
import type { Table } from './table.ts';

/** The CPU limit of one cron invocation on Workers Paid (the default; `limits.cpu_ms` raises it to 5 minutes). */
export const CRON_CPU_LIMIT_MS = 30_000;

/** The targets of part 1f and whether they were met. */
export const metricsVerdicts = (
  m: MetricsResults,
): Record<'p50Ratio' | 'cpuRatio' | 'evaluationCpuMs', { value: number; target: number; met: boolean }> => {
  // Round k of each case ran side by side: the median of the rounds' ratios, as the other parts read theirs.
  const p50 = pairedRatio(
    m.latency.on.map((r) => r.p50Ms),
    m.latency.off.map((r) => r.p50Ms),
  );
  const cpu = pairedRatio(m.cpu.on, m.cpu.off);
  return {
    p50Ratio: { value: p50, target: 1.02, met: p50 <= 1.02 },
    cpuRatio: { value: cpu, target: 1.03, met: cpu <= 1.03 },
    evaluationCpuMs: {
      value: m.evaluation.cpuMs,
      target: CRON_CPU_LIMIT_MS,
      met: m.evaluation.cpuMs <= CRON_CPU_LIMIT_MS,
    },
  };
};

/** The table of part 1f. */
export const metricsTable = (m: MetricsResults): Table => {
  const v = metricsVerdicts(m);
  const mark = (met: boolean) => (met ? 'met' : 'MISSED');
  return {
    title: '1f. Metrics option (agent-functions/metrics)',
    columns: ['case', 'measured', 'target', 'verdict'],
    rows: [
      ['a call with metrics on: p50, x metrics off', v.p50Ratio.value, '<= 1.02x', mark(v.p50Ratio.met)],
      ['a call with metrics on: CPU per call, x metrics off', v.cpuRatio.value, '<= 1.03x', mark(v.cpuRatio.met)],
      [
        `alert evaluation, ${m.evaluation.accounts} accounts x ${m.evaluation.functions} functions (${m.evaluation.incidents} incidents): CPU ms`,
        m.evaluation.cpuMs,
        `<= ${CRON_CPU_LIMIT_MS} ms`,
        mark(v.evaluationCpuMs.met),
      ],
      ['the same evaluation: wall ms', m.evaluation.wallMs, '', ''],
    ],
  };
};
