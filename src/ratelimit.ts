// Optional per-function rate limiting, so a leaked url cannot run up the bill of a paid API that a
// function calls. Counts live in Cloudflare's rate-limiting binding (wrangler.toml [[ratelimits]]).
// createWorker's `rateLimits` option (exported by agent-functions/worker): a Worker whose functions
// declare no `rateLimit` bundles none of it.
import { FunctionError, notConfigured } from './errors.ts';
import type { RateLimits } from './registry.ts';

/** Seconds a refused caller is told to wait: the `period` of FUNCTION_RATE_LIMIT in wrangler.toml. */
export const RATE_LIMIT_RETRY_AFTER_SECONDS = 60;

/**
 * Counts the calls of each function that declares `rateLimit` (docs/security.md): one call counted,
 * and a 429 (with Retry-After) once over the limit.
 * @example createWorker({ functions, rateLimits })
 */
export const rateLimits: RateLimits = async (fn, request, env) => {
  const option = fn.definition.rateLimit;
  if (!option) return;
  const limiter = env.FUNCTION_RATE_LIMIT;
  if (!limiter) {
    // Fail closed: the author asked for a limit, so an unlimited run is the bill they feared.
    throw notConfigured('its rate limit');
  }
  // cf-connecting-ip is set by Cloudflare's edge; a client cannot choose it in production.
  const key = option.key === 'caller' ? `${fn.name}:${request.headers.get('cf-connecting-ip') ?? 'unknown'}` : fn.name;
  const { success } = await limiter.limit({ key });
  if (!success) {
    throw new FunctionError(
      429,
      'rate_limited',
      `Too many requests to this function right now. Do not retry now; tell the customer to try again in a minute (${RATE_LIMIT_RETRY_AFTER_SECONDS} seconds).`,
      { headers: { 'Retry-After': String(RATE_LIMIT_RETRY_AFTER_SECONDS) } },
    );
  }
};
