import { describe, expect, it } from 'vitest';
import { median, pairedDifference, pairedRatio, pairRatios, percentile, quantileInterval } from '../src/stats.ts';

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

describe('how sure a median or a percentile is', () => {
  it('bounds the median of six pairs by their min and max (96.9%), and of five not at all', () => {
    expect(quantileInterval([1.02, 1.05, 1.04, 1.08, 1.01, 1.06], 0.5)).toEqual({
      low: 1.01,
      high: 1.08,
      confidence: expect.closeTo(1 - 2 / 64, 9),
    });
    const five = quantileInterval([1, 2, 3, 4, 5], 0.5);
    expect([five.low, five.high]).toEqual([Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY]);
  });

  it('narrows as pairs are repeated: 40 batches bound the median by their 14th and 27th', () => {
    const batches = Array.from({ length: 40 }, (_, i) => 40 - i);
    expect(quantileInterval(batches, 0.5)).toMatchObject({ low: 14, high: 27, confidence: expect.closeTo(0.9615, 4) });
  });

  it('bounds a p99 of 60 samples from below only, and of 400 from both sides', () => {
    const upTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
    expect(quantileInterval(upTo(60), 0.99)).toMatchObject({ low: 58, high: Number.POSITIVE_INFINITY });
    expect(quantileInterval(upTo(400), 0.99)).toMatchObject({ low: 392, high: 400 });
  });

  it('leaves out values that are not numbers, and bounds nothing without values', () => {
    expect(quantileInterval([Number.NaN, 2, 1, 3, 5, 4, 6], 0.5)).toMatchObject({ low: 1, high: 6 });
    expect(quantileInterval([], 0.5)).toEqual({
      low: Number.NEGATIVE_INFINITY,
      high: Number.POSITIVE_INFINITY,
      confidence: 0,
    });
  });

  it('pairs before dividing, dropping pairs whose ratio cannot be taken', () => {
    expect(pairRatios([10, 9, 4], [5, 0, Number.NaN])).toEqual([2]);
  });
});
