// One invocation: key -> rate limit -> body -> signature and replay -> arguments -> handler under a time limit -> answer.
import { coerceArguments, rawArguments, readBody, validateArguments } from './args.ts';
import { DEFAULT_BODY_LIMIT } from './define.ts';
import { type Env, isDevelopment } from './env.ts';
import { FunctionError } from './errors.ts';
import { isFunctionKey, KEY_HEADER, KEY_QUERY } from './keys.ts';
import type { Logger } from './log.ts';
import type { PlatformClient } from './platform/client.ts';
import { checkRateLimit } from './ratelimit.ts';
import type { RegisteredFunction } from './registry.ts';
import { checkSignature } from './signed.ts';

/** Everything one invocation needs beside the function itself. */
export interface Invocation {
  request: Request;
  url: URL;
  env: Env;
  ctx: ExecutionContext;
  requestId: string;
  log: Logger;
  /** Makes `context.platform`; absent when the Worker was created without the platform option. */
  platform?: PlatformFactory | undefined;
}

/** How a Worker that opted in builds `context.platform` (src/platform/fromEnv.ts's platformFromEnv). */
export type PlatformFactory = (env: Env, signal: AbortSignal) => PlatformClient;

const platformNotEnabled = (log: Logger) => {
  log.error('platform_not_enabled', {
    hint: 'a handler used context.platform: pass platform: platformFromEnv (src/platform/fromEnv.ts) to createWorker in worker.ts',
  });
  return new FunctionError(
    503,
    'platform_not_configured',
    'This function cannot reach the messaging platform: the Worker is not set up for it. Tell the customer you cannot do this right now.',
  );
};

const ALLOWED_METHODS = 'GET, POST';

/** The key as the platform sent it: `?key=`, `X-Function-Key`, or `Authorization: Bearer`. */
export const presentedKey = (request: Request, url: URL): string | null =>
  url.searchParams.get(KEY_QUERY) ??
  request.headers.get(KEY_HEADER) ??
  /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1] ??
  null;

let warnedOpen = false;

const checkKey = async (fn: RegisteredFunction, { request, url, env, log }: Invocation) => {
  const secret = env.FUNCTIONS_SECRET;
  if (!secret) {
    if (!isDevelopment(env)) {
      throw new FunctionError(
        503,
        'not_configured',
        'This function is not available right now: the service is not configured. Tell the customer you cannot do this at the moment.',
      );
    }
    if (!warnedOpen) {
      warnedOpen = true;
      log.warn('open_without_secret', {
        hint: 'FUNCTIONS_SECRET is unset: local development serves every function without a key',
      });
    }
    return;
  }
  const key = presentedKey(request, url);
  if (!key || !(await isFunctionKey(secret, fn.name, key))) {
    throw new FunctionError(
      401,
      'unauthorized',
      'The function key is missing or wrong. This is a configuration problem, not something the customer can fix: tell them you cannot do this right now.',
    );
  }
};

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as PromiseLike<unknown> | null)?.then === 'function';

const runWithTimeout = async (
  fn: RegisteredFunction,
  args: Record<string, unknown>,
  inv: Invocation,
): Promise<unknown> => {
  const controller = new AbortController();
  const timeoutMs = fn.manifest.timeoutMs;
  let platform: PlatformClient | undefined;
  const context = {
    env: inv.env,
    requestId: inv.requestId,
    signal: controller.signal,
    waitUntil: (promise: Promise<unknown>) => inv.ctx.waitUntil(promise),
    request: inv.request,
    log: inv.log,
    // Lazy: a function that never calls the platform needs neither secret.
    get platform(): PlatformClient {
      if (!inv.platform) throw platformNotEnabled(inv.log);
      platform ??= inv.platform(inv.env, controller.signal);
      return platform;
    },
  };
  const result = fn.definition.handler(args, context);
  // A synchronous handler has already finished (no timer could have stopped it): skip the timer.
  if (!isThenable(result)) return result;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort(new DOMException(`Timed out after ${timeoutMs} ms`, 'TimeoutError'));
      reject(
        new FunctionError(
          504,
          'timeout',
          `The function took longer than ${timeoutMs / 1000} seconds and was stopped. Tell the customer it is taking too long and offer to try again in a moment.`,
        ),
      );
    }, timeoutMs);
  });
  try {
    return await Promise.race([result, expired]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
};

/**
 * Runs one function for one request and returns its JSON result; throws FunctionError for every
 * refusal. Anything else the handler throws is the caller's 500.
 */
export const invoke = async (fn: RegisteredFunction, inv: Invocation): Promise<unknown> => {
  const { request, url, env } = inv;
  if (request.method !== 'GET' && request.method !== 'POST') {
    throw new FunctionError(
      405,
      'method_not_allowed',
      `Call this function with POST and a JSON object of arguments (or GET with query parameters), not ${request.method}.`,
      { headers: { Allow: ALLOWED_METHODS } },
    );
  }
  await checkKey(fn, inv);
  await checkRateLimit(fn, request, env);
  const body = request.method === 'POST' ? await readBody(request, DEFAULT_BODY_LIMIT) : '';
  await checkSignature(request, env, body);
  const raw = coerceArguments(rawArguments(request, url, body, fn.parameters), fn.parameters, fn.dates);
  const args = await validateArguments(fn.definition.parameters, raw, fn.parameters);
  if (fn.definition.logArguments) inv.log.info('arguments', { arguments: args as object });
  return runWithTimeout(fn, args, inv);
};
