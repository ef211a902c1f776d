// The few statistics the benchmark reports: medians of rounds, percentiles of latencies, ratios.

/**
 * The p-th percentile (0..100) by nearest rank; NaN for no values.
 * @example percentile([1, 2, 3, 4], 50) // 2
 */
export const percentile = (values: readonly number[], p: number): number => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
};

/**
 * The median: the middle value, or the mean of the two middle ones.
 * @example median([3, 1, 2]) // 2
 */
export const median = (values: readonly number[]): number => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/**
 * The median of paired ratios a[i] / b[i]: pairing rounds run side by side cancels drift between rounds.
 * @example pairedRatio([10, 20], [5, 10]) // 2
 */
export const pairedRatio = (a: readonly number[], b: readonly number[]): number => {
  const ratios: number[] = [];
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    if (Number.isFinite(x) && Number.isFinite(y) && y !== 0) ratios.push(x / y);
  }
  return median(ratios);
};

/**
 * The paired differences a[i] - b[i] of measurements taken side by side.
 * @example pairedDifferences([12, 25], [10, 20]) // [2, 5]
 */
export const pairedDifferences = (a: readonly number[], b: readonly number[]): number[] => {
  const differences: number[] = [];
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const d = (a[i] as number) - (b[i] as number);
    if (Number.isFinite(d)) differences.push(d);
  }
  return differences;
};

/**
 * The median of paired differences a[i] - b[i], for measurements taken side by side in runs.
 * @example pairedDifference([12, 25], [10, 20]) // 3.5
 */
export const pairedDifference = (a: readonly number[], b: readonly number[]): number => median(pairedDifferences(a, b));
