// Part 1f's verdicts: the metrics rows carry an interval and say yes, NO or unsure as every other
// ratio row does, and the alert evaluation is judged against a cron run's CPU limit.
import { describe, expect, it } from 'vitest';
import type { MetricsResults } from '../src/metrics.ts';
import { metricsTable, metricsVerdicts } from '../src/metricsReport.ts';
import { verdictText } from '../src/report.ts';

const results = (onP50s: number[], onCpu: number[], evaluationCpuMs = 60): MetricsResults => ({
  latency: { off: onP50s.map(() => 4), on: onP50s },
  cpu: { off: onCpu.map(() => 100), on: onCpu },
  evaluation: { accounts: 500, functions: 10, buckets: 25_000, incidents: 500, cpuMs: evaluationCpuMs, wallMs: 62 },
});

describe('the metrics part', () => {
  it('says yes when every pair is within its target, with the interval beside the ratio', () => {
    const verdicts = metricsVerdicts(
      results(
        [4, 4, 4, 4, 4, 4],
        Array.from({ length: 40 }, () => 101),
      ),
    );
    expect(verdicts.map(verdictText)).toEqual(['yes', 'yes', 'yes']);
    expect(verdicts[0]?.measured).toBe('1.00x (1.00x-1.00x)');
    expect(verdicts[1]?.measured).toBe('1.01x (1.01x-1.01x)');
  });

  it('says unsure when the pairs straddle a target, and NO when none meets it', () => {
    const straddling = [3.9, 4.3, 3.9, 4.3, 3.9, 4.3];
    const over = Array.from({ length: 40 }, () => 110);
    const verdicts = metricsVerdicts(results(straddling, over, 31_000));
    expect(verdicts.map(verdictText)).toEqual(['unsure', 'NO', 'NO']);
  });

  it('prints the verdicts as a table of measure, result and whether the target was met', () => {
    const table = metricsTable(
      results(
        [4, 4, 4, 4, 4, 4],
        Array.from({ length: 40 }, () => 100),
      ),
    );
    expect(table.columns).toEqual(['measure', 'result', 'target met']);
    expect(table.rows[2]).toEqual([
      "one alert evaluation over 500 accounts x 10 functions (500 incidents) within a cron run's CPU limit (30 s)",
      '60.0 ms CPU, 62.0 ms wall',
      'yes',
    ]);
  });
});
