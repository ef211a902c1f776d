// The V8 flags of every workerd the benchmark starts (docs/performance.md "Method"). Left to
// itself, V8 sizes each isolate's young generation as it goes: it shrinks it while a Worker waits
// between rounds and grows it back only as objects survive. Two Workers allocating alike then run
// with young generations of different sizes, and the one whose objects die young is collected two
// to three times as often, in short pauses that land in its p99. A fixed size makes each Worker's
// collections follow what it allocates, the same rule for every Worker of the run.

/** The young generation at 16 MB a semi-space, whatever the isolate did before. */
export const BENCH_V8_FLAGS: string = '--min-semi-space-size=16';

/** Where Miniflare reads workerd's V8 flags from when it starts workerd. */
export const V8_FLAGS_VARIABLE = 'MINIFLARE_WORKERD_V8_FLAGS';

/**
 * Gives every workerd this process starts BENCH_V8_FLAGS, unless `env` already names flags of its
 * own (an empty value runs V8's defaults); returns the flags in use.
 * @example useBenchV8Flags({}) // '--min-semi-space-size=16'
 */
export const useBenchV8Flags = (env: NodeJS.ProcessEnv = process.env): string => {
  env[V8_FLAGS_VARIABLE] ??= BENCH_V8_FLAGS;
  return env[V8_FLAGS_VARIABLE] ?? '';
};
