// `npm run bench -- --markdown`: the one results table docs/performance.md holds, rendered from a run.
import { describe, expect, it } from 'vitest';
import { QUICK_SETTINGS } from '../src/args.ts';
import type { InvocationRounds } from '../src/invocation.ts';
import type { LoadResult } from '../src/loadTest.ts';
import { type BenchResults, measuredLine, resultsTable } from '../src/report.ts';
import { renderMarkdown } from '../src/table.ts';

const load = (requestsPerSecond: number, p50Ms: number, p99Ms: number): LoadResult => ({
  requestsPerSecond,
  p50Ms,
  p99Ms,
  responses: 1000,
  unexpected: 0,
});

/** Six rounds: the project's p99 moves between rounds (1.0x to 1.2x the baseline's), the rest do not. */
const six = (result: LoadResult | ((round: number) => LoadResult)): LoadResult[] =>
  Array.from({ length: 6 }, (_, round) => (typeof result === 'function' ? result(round) : result));

const invocation: InvocationRounds = {
  'project-10/valid': six((round) => load(970, 4, round % 2 ? 12 : 10)),
  'baseline/valid': six(load(1000, 4, 10)),
  'baseline-zod/valid': six(load(1000, 4, 10)),
  'project-1000/valid': six(load(970, 4, 10)),
  'project-10/invalid': six(load(900, 4.4, 12)),
  'baseline/invalid': six(load(1000, 4, 10)),
  'baseline-zod/invalid': six(load(950, 4.2, 11)),
  'project-signing/unsigned': six(load(1000, 4, 10)),
  'project-signing/signed': six(load(910, 4.4, 11)),
};

const run: BenchResults = {
  machine: { cpus: 2, cpuModel: 'AMD EPYC', node: 'v24.21.0', date: '2026-11-22T07:53:39Z', commit: '44e42ba' },
  settings: QUICK_SETTINGS,
  invocation,
  events: { delivery: [load(430, 2.85, 15.7)], call: [load(1000, 1.23, 2.23)] },
  size: [
    { worker: 'bare zod', gzipBytes: 90 * 1024, startupMs: [7, 7, 7, 7, 7, 7] },
    { worker: 'project', gzipBytes: 99.5 * 1024, startupMs: [7.5, 7.4, 7.6, 7.5, 7.4, 7.6] },
    { worker: 'project + /openapi.json', gzipBytes: 101 * 1024, startupMs: [7.85, 7.75, 7.95, 7.85, 7.75, 7.95] },
  ],
  sync: [
    { scenario: 'no-op rerun', reads: 10, writes: 0, rateLimited: 0, wallMs: 19, status: 'in-sync' },
    { scenario: '10 changed', reads: 10, writes: 10, rateLimited: 0, wallMs: 27, status: 'synced' },
  ],
  memory: [
    { count: 10, definitionBytes: 22.2 * 1024, registeredBytes: 27.1 * 1024 },
    { count: 1000, definitionBytes: 22.3 * 1024, registeredBytes: 27.1 * 1024 },
  ],
};

describe('the results table of docs/performance.md', () => {
  it('says when, at which commit and on what the run measured', () => {
    expect(measuredLine(run, false)).toBe(
      'Measured 2026-11-22T07:53:39Z at commit 44e42ba on 2 x AMD EPYC, Node v24.21.0.',
    );
    expect(measuredLine({ ...run, machine: { ...run.machine, commit: undefined } }, true)).toBe(
      'Measured 2026-11-22T07:53:39Z on 2 x AMD EPYC, Node v24.21.0 (--quick: a smoke run, too noisy to quote).',
    );
    expect(
      measuredLine(
        { ...run, machine: { ...run.machine, v8Flags: '--min-semi-space-size=16', storage: '/dev/shm' } },
        false,
      ),
    ).toBe(
      'Measured 2026-11-22T07:53:39Z at commit 44e42ba on 2 x AMD EPYC, Node v24.21.0, workerd V8 flags --min-semi-space-size=16, local storage in memory (/dev/shm).',
    );
  });

  it('renders every target with its result and verdict, then the costs that have no target, as one Markdown table', () => {
    expect(renderMarkdown(resultsTable(run), { title: false }).split('\n')).toEqual([
      '| measure | result | target met |',
      '| --- | --- | --- |',
      '| valid-call throughput >= 0.9x baseline | 0.97x (0.97x-0.97x) | yes |',
      '| valid-call p99 <= 1.15x baseline | 1.10x (1.00x-1.20x) | unsure |',
      '| invalid-call p50 <= 1.25x baseline | 1.10x (1.10x-1.10x) | yes |',
      '| 1,000 functions: p50 <= 1.1x of 10 functions | 1.00x (1.00x-1.00x) | yes |',
      '| stretch: valid-call throughput >= 0.95x the zod baseline | 0.97x (0.97x-0.97x) | yes |',
      '| framework share <= 10 KiB gzip | 9.5 KiB | yes |',
      '| framework share <= 2 ms start-up CPU | 0.5 ms (0.4 to 0.6 ms) | yes |',
      '| no-op sync: zero writes, only the 10 list pages | 0 writes, 10 reads | yes |',
      '| 10 changed: exactly 10 writes | 10 writes | yes |',
      '| signed call: req/s x an unsigned call on the same Worker | 0.91x | - |',
      "| event delivery acknowledged (202 once queued) | p50 2.85 ms; 0.43x a function call's req/s | - |",
      '| /openapi.json: cost when turned on | +1.50 KiB gzip, +0.35 ms start-up CPU | - |',
      '| heap per function (1,000 functions) | 22.3 KiB defined, 27.1 KiB registered and translated | - |',
      '',
      '- Ratios compare Workers measured side by side in this run (medians of paired rounds or batches); in brackets the interval that holds the median (or the p99) with at least 95% confidence, from the order statistics of the pairs (or samples); "?": too few for that side; "unsure": the interval straddles the target (more pairs: --repeat); "-": no target.',
    ]);
  });

  it('keeps the title above the table unless told not to, and says NO for a missed target', () => {
    const noop = { scenario: 'no-op rerun', reads: 10, writes: 3, rateLimited: 0, wallMs: 19, status: 'in-sync' };
    const missed: BenchResults = { ...run, sync: [noop] };
    const markdown = renderMarkdown(resultsTable(missed)).split('\n');
    expect(markdown.slice(0, 2)).toEqual(['**Results**', '']);
    expect(markdown).toContain('| no-op sync: zero writes, only the 10 list pages | 3 writes, 10 reads | NO |');
  });

  it('leaves out the rows of parts the run did not measure', () => {
    const sizeOnly: BenchResults = { machine: run.machine, settings: QUICK_SETTINGS, size: run.size };
    expect(resultsTable(sizeOnly).rows.map((row) => row[0])).toEqual([
      'framework share <= 10 KiB gzip',
      'framework share <= 2 ms start-up CPU',
      '/openapi.json: cost when turned on',
    ]);
  });
});
