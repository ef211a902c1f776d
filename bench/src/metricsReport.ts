// Part 1f's table and targets (bench/src/metrics.ts): a call with metrics on against metrics off
// (p50 <= 1.02x, CPU per call <= 1.03x), each the median of its paired rounds or batches with the
// interval every ratio row carries (bench/src/report.ts), and one alert evaluation over 500
// accounts x 10 functions within one cron invocation's CPU limit.
import type { MetricsResults } from './metrics.ts';
import { ratioVerdict, type TargetVerdict, verdictText } from './report.ts';
import type { Table } from './table.ts';

/** The CPU limit of one cron invocation on Workers Paid (the default; `limits.cpu_ms` raises it to 5 minutes). */
export const CRON_CPU_LIMIT_MS = 30_000;

/** The targets of part 1f, judged as the other parts' are: yes, NO or unsure. */
export const metricsVerdicts = (m: MetricsResults): TargetVerdict[] => [
  // Block k of each side ran call by call beside the other's: the median of the blocks' ratios.
  ratioVerdict('a call with metrics on: p50 <= 1.02x the same call with metrics off', m.latency.on, m.latency.off, {
    at: '<=',
    bound: 1.02,
  }),
  ratioVerdict('a call with metrics on: CPU per call <= 1.03x metrics off', m.cpu.on, m.cpu.off, {
    at: '<=',
    bound: 1.03,
  }),
  {
    target: `one alert evaluation over ${m.evaluation.accounts} accounts x ${m.evaluation.functions} functions (${m.evaluation.incidents} incidents) within a cron run's CPU limit (${CRON_CPU_LIMIT_MS / 1000} s)`,
    measured: `${m.evaluation.cpuMs.toFixed(1)} ms CPU, ${m.evaluation.wallMs.toFixed(1)} ms wall`,
    met: m.evaluation.cpuMs <= CRON_CPU_LIMIT_MS,
  },
];

/** The table of part 1f. */
export const metricsTable = (m: MetricsResults): Table => ({
  title: '1f. Metrics option (agent-functions/metrics)',
  columns: ['measure', 'result', 'target met'],
  rows: metricsVerdicts(m).map((verdict) => [verdict.target, verdict.measured, verdictText(verdict)]),
});
