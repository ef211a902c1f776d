import { describe, expect, it } from 'vitest';
import { median, pairedDifference, pairedRatio, percentile } from '../src/stats.ts';

describe('bench statistics', () => {
  it('takes percentiles by nearest rank', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile(values, 100)).toBe(100);
    expect(percentile([7], 99)).toBe(7);
  });

  it('answers NaN for percentiles and medians of nothing', () => {
    expect(percentile([], 50)).toBeNaN();
    expect(median([])).toBeNaN();
  });

  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('pairs rounds before dividing, so drift between rounds cancels', () => {
    // Each round the machine got slower, but the project stayed at 1.1x the baseline.
    expect(pairedRatio([110, 220, 330], [100, 200, 300])).toBeCloseTo(1.1);
  });

  it('takes the median of paired differences of runs side by side', () => {
    expect(pairedDifference([28, 26, 27], [20, 30, 25])).toBe(2);
    expect(pairedDifference([1], [Number.NaN])).toBeNaN();
  });

  it('leaves out rounds whose ratio cannot be taken', () => {
    expect(pairedRatio([2, 5, Number.NaN], [1, 0, 4])).toBe(2);
    expect(pairedRatio([], [])).toBeNaN();
  });
});
