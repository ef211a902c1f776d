// The per-key rate limit: a fixed window per API key (the spec gives no numbers).

export interface RateLimitOptions {
  /** Requests allowed per key per window. */
  limit: number;
  windowMs: number;
}

/** Default: generous enough for a sync of hundreds of functions, small enough to be reached on purpose. */
export const DEFAULT_RATE_LIMIT: RateLimitOptions = { limit: 600, windowMs: 60_000 };

/**
 * A limiter answering, for each request of a key, how many seconds to wait (0 when allowed).
 * @example const wait = createRateLimiter({ limit: 2, windowMs: 1000 })('key') // 0
 */
export const createRateLimiter = (options: RateLimitOptions | false, now: () => number = Date.now) => {
  const windows = new Map<string, { start: number; count: number }>();
  return (key: string): number => {
    if (!options) return 0;
    const time = now();
    let window = windows.get(key);
    if (!window || time - window.start >= options.windowMs) {
      window = { start: time, count: 0 };
      windows.set(key, window);
    }
    window.count++;
    if (window.count <= options.limit) return 0;
    return Math.max(1, Math.ceil((window.start + options.windowMs - time) / 1000));
  };
};
