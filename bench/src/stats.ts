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

/**
 * The ratios a[i] / b[i] of measurements taken side by side, leaving out pairs whose ratio cannot be taken.
 * @example pairRatios([10, 9], [5, 0]) // [2]
 */
export const pairRatios = (a: readonly number[], b: readonly number[]): number[] => {
  const ratios: number[] = [];
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    if (Number.isFinite(x) && Number.isFinite(y) && y !== 0) ratios.push(x / y);
  }
  return ratios;
};

/** Where a measure lies, with the confidence the interval has of holding it; ±Infinity: no bound on that side. */
export interface Interval {
  low: number;
  high: number;
  confidence: number;
}

/** P(X <= k) for X ~ Binomial(n, p), its terms in logs (0.01^400 underflows a double). */
const binomialCdf = (k: number, n: number, p: number): number => {
  if (p <= 0) return 1;
  if (p >= 1) return k >= n ? 1 : 0;
  let logTerm = n * Math.log1p(-p);
  const step = Math.log(p) - Math.log1p(-p);
  let sum = 0;
  for (let i = 0; i <= Math.min(k, n); i++) {
    sum += Math.exp(logTerm);
    logTerm += Math.log((n - i) / (i + 1)) + step;
  }
  return Math.min(1, sum);
};

/**
 * A distribution-free confidence interval of the q-quantile (0.5: the median) of what `values`
 * sample, from their order statistics: the number of samples below the true quantile is
 * Binomial(n, q), so [x(l), x(u)] holds it with at least `confidence`, split evenly between the two
 * sides. No shape is assumed (rounds on a shared machine are not normal). With too few samples
 * for a side, that side is unbounded: six pairs bound a median by their min and max (96.9%), five do not.
 * @example quantileInterval([1.02, 1.05, 1.04, 1.08, 1.01, 1.06], 0.5) // { low: 1.01, high: 1.08, confidence: 0.96875 }
 */
export const quantileInterval = (values: readonly number[], q: number, confidence = 0.95): Interval => {
  const sorted = values.filter(Number.isFinite).sort((x, y) => x - y);
  const n = sorted.length;
  const tail = (1 - confidence) / 2;
  // Lower bound x(l): the largest l with P(fewer than l samples below the quantile) <= tail.
  let l = 0;
  while (l < n && binomialCdf(l, n, q) <= tail) l++;
  // Upper bound x(u): the smallest u with P(fewer than u samples below) >= 1 - tail.
  let u = 1;
  while (u <= n && binomialCdf(u - 1, n, q) < 1 - tail) u++;
  const low = l >= 1 ? (sorted[l - 1] as number) : Number.NEGATIVE_INFINITY;
  const high = u <= n ? (sorted[u - 1] as number) : Number.POSITIVE_INFINITY;
  const below = l >= 1 ? binomialCdf(l - 1, n, q) : 0;
  const above = u <= n ? 1 - binomialCdf(u - 1, n, q) : 0;
  return { low, high, confidence: n === 0 ? 0 : 1 - below - above };
};
