// When to try again: Retry-After (seconds or HTTP date) and capped, jittered exponential backoff.

/** How the client retries; every field has a default. */
export interface RetryOptions {
  /** Retries after the first attempt (default 3). */
  retries?: number;
  /** First backoff step in milliseconds (default 250). */
  baseDelayMs?: number;
  /** Cap of one backoff step in milliseconds (default 8 000). */
  maxDelayMs?: number;
  /** A Retry-After longer than this is not waited for: the RateLimitError is thrown (default 60 000). */
  maxRetryAfterMs?: number;
}

export const DEFAULT_RETRY: Required<RetryOptions> = {
  retries: 3,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

/**
 * Milliseconds a `Retry-After` value asks for, or undefined when absent or unreadable.
 * @example parseRetryAfter('2') // 2000
 */
export const parseRetryAfter = (value: string | null, now: number = Date.now()): number | undefined => {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date) || !/[a-z]/i.test(text)) return undefined;
  return Math.max(0, date - now);
};

/**
 * The wait before retry number `attempt` (1-based): exponential, capped, with jitter so clients that
 * failed together do not retry together. Never below half the step, so a rate limit gets some rest.
 * @example backoffDelay(2, { baseDelayMs: 100, maxDelayMs: 1000 }) // between 100 and 200
 */
export const backoffDelay = (
  attempt: number,
  options: { baseDelayMs: number; maxDelayMs: number },
  random: () => number = Math.random,
): number => {
  const step = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(step / 2 + (random() * step) / 2);
};

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const done = () => {
      signal?.removeEventListener('abort', abort);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', abort, { once: true });
  });
