// One invocation: key for the name -> deployed? -> method -> rate limit -> body -> signature -> arguments ->
// handler, the body and the handler under one deadline -> answer. MCP's tools/call joins at the
// rate limit (execute), so both transports run the same pipeline.

import { coerceArguments, rawArguments, readBody, validateArguments } from './args.ts';
import { bearerToken } from './bearerToken.ts';
import type { Conversation } from './conversations/conversation.ts';
import type { ConversationFeatures } from './conversations/features.ts';
import type { TaskRequest } from './conversations/task.ts';
import { DEFAULT_BODY_LIMIT } from './define.ts';
import { type Env, isDevelopment, type WithProcess } from './env.ts';
import { FunctionError } from './errors.ts';
import { isFunctionKey, KEY_HEADER, KEY_QUERY } from './keys.ts';
import type { Logger } from './log.ts';
import type { PlatformClient } from './platform/client/client.ts';
import { FUNCTION_NAME } from './platform/protocol/function.ts';
import { checkRateLimit } from './ratelimit.ts';
import type { RegisteredFunction, Registry } from './registry.ts';
import { checkSignature } from './signed.ts';
import { isThenable } from './thenable.ts';

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
  /** When the call must be answered (ms since the epoch): the body and the handler share it. */
  deadline?: number;
  /** The platform's conversation identifiers (docs/platform-contract.md §9); never set under MCP. */
  conversation?: Conversation | undefined;
  /** Under MCP, a client that takes tasks (src/conversations/task.ts): a `later` function may answer with one. */
  task?: TaskRequest | undefined;
  /** Deferred work in its workflow: no deduplication, no deferral again. */
  deferred?: boolean;
  /** Deduplication and deferral, when the Worker was created with the conversations option. */
  conversations?: ConversationFeatures | undefined;
  /** Stops the running handler (its signal fires with `reason`): set for `later` functions. */
  stop?: (reason: DOMException) => void;
}

/** How a Worker that opted in builds `context.platform` (platformFromEnv of agent-functions/platform). */
export type PlatformFactory = (env: Env, signal: AbortSignal) => PlatformClient;

const platformNotEnabled = (log: Logger) => {
  log.error('platform_not_enabled', {
    hint: 'a handler used context.platform: pass platform: platformFromEnv (from agent-functions/platform) to createWorker in worker.ts',
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
  url.searchParams.get(KEY_QUERY) ?? request.headers.get(KEY_HEADER) ?? bearerToken(request) ?? null;

let warnedOpen = false;

/** Names, methods and missing functions all look alike to a caller without the name's key. */
const unauthorized = () =>
  new FunctionError(
    401,
    'unauthorized',
    'The function key is missing or wrong. This is a configuration problem, not something the customer can fix: tell them you cannot do this right now.',
  );

const checkKey = async (name: string, { request, url, env, log }: Invocation) => {
  const secret = env.FUNCTIONS_SECRET;
  if (!secret) {
    // Spelled out, so a production bundle drops this branch (src/env.ts).
    if ((globalThis as WithProcess).process?.env.NODE_ENV !== 'production' && isDevelopment(env)) {
      if (!warnedOpen) {
        warnedOpen = true;
        log.warn('open_without_secret', {
          hint: 'FUNCTIONS_SECRET is unset: local development serves every function without a key',
        });
      }
      return;
    }
    // The caller learns only "not configured"; the log says why, beside each 503.
    log.error('functions_secret_missing', {
      hint: 'FUNCTIONS_SECRET is unset on this Worker, so every function answers 503: npx wrangler secret put FUNCTIONS_SECRET (or npm run secrets -- put), with the value sync uses.',
    });
    throw new FunctionError(
      503,
      'not_configured',
      'This function is not available right now: the service is not configured. Tell the customer you cannot do this at the moment.',
    );
  }
  // Keys are derived from the name, so a key for a name never deployed verifies too: only its
  // holder learns (with a 404) that the function is gone.
  const key = presentedKey(request, url);
  if (!key || !FUNCTION_NAME.test(name) || !(await isFunctionKey(secret, name, key))) throw unauthorized();
};

/**
 * The function a request under /functions/ may call: 401 alike for every name and method without
 * that name's key, then 404 for a name no longer deployed (503 under npm run dev, where that is a
 * file that does not build), then 405 for a method other than GET or POST
 * (docs/platform-contract.md §4). No message quotes the name.
 * @example const fn = await authorise(url.pathname.slice('/functions/'.length), registry, inv)
 */
export const authorise = async (name: string, registry: Registry, inv: Invocation): Promise<RegisteredFunction> => {
  await checkKey(name, inv);
  const fn = registry.get(name);
  if (!fn && (globalThis as WithProcess).process?.env.NODE_ENV !== 'production' && isDevelopment(inv.env)) {
    // Under npm run dev a registered name the Worker does not serve is a file that does not build
    // (dev keeps its registration and says why): the model is to try again, not to give it up.
    throw new FunctionError(
      503,
      'not_served_now',
      'This function is not available right now. Try again in a minute; if it still fails, tell the customer you cannot do this at the moment.',
    );
  }
  if (!fn) {
    throw new FunctionError(
      404,
      'unknown_function',
      'This function is no longer deployed. Do not call it again; help the customer another way.',
    );
  }
  const { method } = inv.request;
  if (method !== 'GET' && method !== 'POST') {
    throw new FunctionError(
      405,
      'method_not_allowed',
      'Call this function with POST and a JSON object of arguments (or GET with query parameters).',
      { headers: { Allow: ALLOWED_METHODS } },
    );
  }
  return fn;
};

// Not async: a synchronous handler's result goes back without a promise of its own.
const runWithTimeout = (fn: RegisteredFunction, args: Record<string, unknown>, inv: Invocation): unknown => {
  // Made on first need: most handlers never read the signal and finish synchronously. A signal
  // first read after the time limit passed is born aborted.
  let controller: AbortController | undefined;
  let expiredReason: DOMException | undefined;
  const signal = () => {
    if (!controller) {
      controller = new AbortController();
      if (expiredReason) controller.abort(expiredReason);
    }
    return controller.signal;
  };
  const timeoutMs = fn.manifest.timeoutMs;
  const remainingMs = Math.max(0, (inv.deadline ?? Date.now() + timeoutMs) - Date.now());
  let platform: PlatformClient | undefined;
  const context = {
    env: inv.env,
    requestId: inv.requestId,
    get signal() {
      return signal();
    },
    waitUntil: (promise: Promise<unknown>) => inv.ctx.waitUntil(promise),
    request: inv.request,
    log: inv.log,
    // Lazy: a function that never calls the platform needs neither secret.
    get platform(): PlatformClient {
      if (!inv.platform) throw platformNotEnabled(inv.log);
      platform ??= inv.platform(inv.env, signal());
      return platform;
    },
    conversation: inv.conversation,
    deferred: inv.deferred,
  };
  // Stops the handler: at its time limit, or when a `later` function's work is deferred.
  const stop = (reason: DOMException) => {
    expiredReason = reason;
    controller?.abort(reason);
  };
  inv.stop = stop;
  const result = fn.definition.handler(args, context);
  // A synchronous handler has already finished (no timer could have stopped it): skip the timer.
  if (!isThenable(result)) return result;
  return raceDeadline(result, remainingMs, timeoutMs, stop);
};

/** `result`, or a 504 once `remainingMs` pass; `onExpired` stops the handler (its signal). */
const raceDeadline = async (
  result: PromiseLike<unknown>,
  remainingMs: number,
  timeoutMs: number,
  onExpired: (reason: DOMException) => void,
): Promise<unknown> => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // Settle the race first: a handler that rejects as soon as its signal fires must not win it.
      reject(
        new FunctionError(
          504,
          'timeout',
          `The function took longer than ${timeoutMs / 1000} seconds and was stopped. Tell the customer it is taking too long and offer to try again in a moment.`,
        ),
      );
      onExpired(new DOMException(`Timed out after ${timeoutMs} ms`, 'TimeoutError'));
    }, remainingMs);
  });
  try {
    return await Promise.race([result, expired]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
};

/** Where one call's raw arguments come from (the HTTP request, or an MCP `tools/call`), before `deadline`. */
export type ArgumentSource = (deadline: number) => Promise<Record<string, unknown>> | Record<string, unknown>;

/**
 * The pipeline every transport shares (HTTP and MCP): rate limit -> raw arguments -> coercion ->
 * validation -> handler under the deadline. Throws FunctionError for every refusal.
 */
export const execute = async (fn: RegisteredFunction, inv: Invocation, source: ArgumentSource): Promise<unknown> => {
  const deadline = inv.deadline ?? Date.now() + fn.manifest.timeoutMs;
  // Most functions have no limit: skip the await rather than pay for it on every call.
  if (fn.definition.rateLimit) await checkRateLimit(fn, inv.request, inv.env);
  const raw = coerceArguments(await source(deadline), fn.parameters, fn.dates);
  const args = await validateArguments(fn.definition.parameters, raw, fn.parameters);
  if (fn.definition.logArguments) inv.log.info('arguments', { arguments: args as object });
  inv.deadline = deadline;
  const run = () => runWithTimeout(fn, args, inv);
  // Work already deferred, or a Worker without the conversations option: the plain path.
  return inv.deferred || !inv.conversations ? run() : inv.conversations.run(fn, inv, args, run);
};

/**
 * Runs one authorised function for one request and returns its JSON result; throws FunctionError
 * for every refusal. Anything else the handler throws is the caller's 500.
 */
export const invoke = (fn: RegisteredFunction, inv: Invocation): Promise<unknown> =>
  execute(fn, inv, async (deadline) => {
    const { request, url, env } = inv;
    const body = request.method === 'POST' ? await readBody(request, DEFAULT_BODY_LIMIT, deadline) : '';
    // Undefined when there is nothing to verify (no secret, no signature): no await on the common path.
    const verifying = checkSignature(request, url, env, body);
    if (verifying) await verifying;
    return rawArguments(request, url, body, fn.parameters, inv);
  });
