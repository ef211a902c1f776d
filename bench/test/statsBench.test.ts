// Part 6: local npm run stats over recorded calls, as a new process of the built CLI against a
// console holding the records; its verdict against the 1 s target.
import { describe, expect, it } from 'vitest';
import { measureLocalStats, statsVerdict } from '../src/statsBench.ts';

describe('local npm run stats bench', () => {
  it('runs the built CLI against the records and counts one row per account and function', async () => {
    const result = await measureLocalStats(2000, 1);
    expect(result).toMatchObject({ records: 2000, rows: 200, runs: 1 });
    expect(result.medianMs).toBeGreaterThan(0);
  });

  it('meets the target only when every run took 1 s or less', () => {
    const run = { records: 100_000, rows: 200, runs: 5, medianMs: 400 };
    expect(statsVerdict({ ...run, maxMs: 1000 }).met).toBe(true);
    expect(statsVerdict({ ...run, maxMs: 1001 })).toMatchObject({
      target: 'local npm run stats over 100,000 recorded calls <= 1 s',
      measured: '400 ms (max 1001 ms)',
      met: false,
    });
  });
});
