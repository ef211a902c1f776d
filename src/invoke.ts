// One invocation: key for the name and account -> deployed? -> method -> rate limit -> body ->
// signature -> arguments -> the call (one immutable value) -> handler, the body and the handler
// under one deadline -> answer. MCP's tools/call and deferred work join at execute, so every
// transport runs the same pipeline.
import { coerceArguments, rawArguments, readBody, validateArguments } from './args.ts';
import { bearerToken } from './bearerToken.ts';
import type { ArgumentSource, Call, CallFeature, CallSetup } from './call.ts';
import { isThenable } from './call.ts';
import { checkConfigured } from './configured.ts';
import type { FunctionContext } from './define.ts';
import { DEFAULT_BODY_LIMIT } from './define.ts';
import { type Env, EXPLAINS, isDevelopment, type WithProcess } from './env.ts';
import { FunctionError, notConfigured, platformUnreachable, unauthorized } from './errors.ts';
import { ACCOUNT_QUERY, isFunctionKey, KEY_HEADER, KEY_QUERY } from './keys.ts';
import type { Logger } from './log.ts';
import type { PlatformClient } from './platform/client/client.ts';
import { FUNCTION_NAME } from './platform/protocol/function.ts';
import type { CallRecord } from './record.ts';
import type { RegisteredFunction, Registry } from './registry.ts';
import { checkSignature, namesConversation } from './signed.ts';

const platformNotEnabled = (log: Logger) =>
  platformUnreachable(
    log,
    'platform_not_enabled',
    {
      hint: EXPLAINS
        ? `a handler used context.platform: pass platform: platformFromEnv (from agent-functions/platform) to createWorker in worker.ts`
        : `pass platform: platformFromEnv to createWorker in worker.ts`,
    },
    'the Worker is not set up for it',
  );

const ALLOWED_METHODS = 'GET, POST';

/** The key as the platform sent it: `?key=`, `X-Function-Key`, or `Authorization: Bearer`. */
export const presentedKey = (request: Request, url: URL): string | null =>
  url.searchParams.get(KEY_QUERY) ?? request.headers.get(KEY_HEADER) ?? bearerToken(request) ?? null;

let warnedOpen = false;

/** What authorise reads of a request under /functions/. */
export interface FunctionRequest {
  request: Request;
  url: URL;
  env: Env;
  log: Logger;
}

const checkKey = async (name: string, account: string | undefined, { request, url, env, log }: FunctionRequest) => {
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
      hint: EXPLAINS
        ? `FUNCTIONS_SECRET is unset, so every function answers 503: npx wrangler secret put FUNCTIONS_SECRET, with the value sync uses.`
        : `npx wrangler secret put FUNCTIONS_SECRET, with the value sync uses.`,
    });
    throw notConfigured('the service');
  }
  // Keys are derived from the name, so a key for a name never deployed verifies too: only its
  // holder learns (with a 404) that the function is gone.
  const key = presentedKey(request, url);
  if (!key || !FUNCTION_NAME.test(name) || !(await isFunctionKey(secret, name, key, account))) throw unauthorized();
};

/**
 * The function a request under /functions/ may call, and the account its url names (undefined: the
 * first account's url): 401 alike for every name, account and method without that name's key for
 * that account, then 404 for a name no longer deployed (503 under npm run dev, where that is a
 * file that does not build), then 405 for a method other than GET or POST
 * (docs/platform-contract.md §4, §10). No message quotes the name. `record` gets the function
 * once the name is found served: never a name the Worker does not serve.
 * @example const { fn, account } = await authorise(url.pathname.slice('/functions/'.length), registry, req, record)
 */
export const authorise = async (
  name: string,
  registry: Registry,
  inv: FunctionRequest,
  record: Pick<CallRecord, 'function'>,
): Promise<{ fn: RegisteredFunction; account: string | undefined }> => {
  const account = inv.url.searchParams.get(ACCOUNT_QUERY) ?? undefined;
  await checkKey(name, account, inv);
  const fn = registry.get(name);
  if (
    !fn &&
    (globalThis as WithProcess).process?.env.NODE_ENV !== 'production' &&
    isDevelopment(inv.env) &&
    registry.unbuilt?.(name)
  ) {
    // Under npm run dev a file that does not build keeps its registration (dev says why): the
    // model is to try again, not to give it up. A name with no file is a 404, as in production.
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
  record.function = fn.name;
  const { method } = inv.request;
  if (method !== 'GET' && method !== 'POST') {
    throw new FunctionError(
      405,
      'method_not_allowed',
      'Call this function with POST and a JSON object of arguments (or GET with query parameters).',
      { headers: { Allow: ALLOWED_METHODS } },
    );
  }
  return { fn, account };
};

/** The call's abort, made on first need: most handlers never read the signal and finish synchronously. */
const lazyAbort = () => {
  let controller: AbortController | undefined;
  let reason: DOMException | undefined;
  return {
    // A signal first read after the call was stopped is born aborted.
    signal: (): AbortSignal => {
      if (!controller) {
        controller = new AbortController();
        if (reason) controller.abort(reason);
      }
      return controller.signal;
    },
    stop: (why: DOMException): void => {
      reason = why;
      controller?.abort(why);
    },
  };
};

/**
 * A handler's context. A class, so its getters (`signal`, `platform`) live on the prototype and a
 * call's context is one small object: an object literal with getters is a dictionary in V8, 1 KB
 * more per call to make and collect (docs/performance.md "Where the time goes").
 */
class CallContext implements FunctionContext {
  declare readonly env: Env;
  declare readonly requestId: string;
  declare readonly request: Request | undefined;
  declare readonly log: Logger;
  declare readonly account: FunctionContext['account'];
  declare readonly conversation: FunctionContext['conversation'];
  declare readonly deferred: boolean | undefined;
  /** An own property, so `const { waitUntil } = context` still works. */
  declare readonly waitUntil: (promise: Promise<unknown>) => void;
  #call: Call;
  #signal: () => AbortSignal;
  #platform: PlatformClient | undefined;
  constructor(call: Call, signal: () => AbortSignal) {
    this.env = call.env;
    this.requestId = call.requestId;
    this.waitUntil = (promise) => call.ctx.waitUntil(promise);
    this.request = call.request;
    this.log = call.log;
    this.account = call.account;
    this.conversation = call.conversation;
    this.deferred = call.deferred;
    this.#call = call;
    this.#signal = signal;
  }
  get signal(): AbortSignal {
    return this.#signal();
  }
  // Lazy: a function that never calls the platform needs no key.
  get platform(): PlatformClient {
    const { platform, log } = this.#call;
    if (!platform) throw platformNotEnabled(log);
    this.#platform ??= platform(this.#signal(), log);
    return this.#platform;
  }
}

// Not async: a synchronous handler's result goes back without a promise of its own.
const runWithTimeout = (
  fn: RegisteredFunction,
  args: Record<string, unknown>,
  call: Call,
  signal: () => AbortSignal,
): unknown => {
  const result = fn.definition.handler(args, new CallContext(call, signal));
  // A synchronous handler has already finished (no timer could have stopped it): skip the timer.
  if (!isThenable(result)) return result;
  return raceDeadline(result, Math.max(0, call.deadline - Date.now()), fn.manifest.timeoutMs, call.stop);
};

/** `result`, or a 504 once `remainingMs` pass; `onExpired` stops the handler (its signal). */
const raceDeadline = async (
  result: PromiseLike<unknown>,
  remainingMs: number,
  timeoutMs: number,
  onExpired: (reason: DOMException) => void,
): Promise<unknown> => {
  // Set at once: a promise's executor runs before the constructor returns.
  let timer!: ReturnType<typeof setTimeout>;
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
    clearTimeout(timer);
  }
};

/**
 * The pipeline every transport shares (HTTP, MCP, deferred work): rate limit -> raw arguments ->
 * coercion -> validation -> the call -> `feature` (deduplication, deferral), or the handler under
 * the deadline. Throws FunctionError for every refusal.
 * @example await execute(fn, setup, () => ({ args: { orderNumber: '42' } }))
 */
export const execute = async (
  fn: RegisteredFunction,
  setup: CallSetup,
  source: ArgumentSource,
  feature?: CallFeature,
): Promise<unknown> => {
  const deadline = setup.arrivedAt + fn.manifest.timeoutMs;
  // Most functions have no limit: skip the await rather than pay for it on every call. Deferred
  // work was counted when it was called.
  if (fn.limit && setup.request && !setup.deferred) await fn.limit(fn, setup.request, setup.env);
  // The source checks a signed call's signature as it reads the body: a caller it refuses (401)
  // learns nothing of the function's settings.
  const read = await source(deadline);
  // Only a function that declares settings pays for the check (configured.ts), once per isolate.
  if (fn.definition.secrets || fn.definition.vars) checkConfigured(fn, setup.env, setup.log);
  const readyAt = Date.now();
  const raw = coerceArguments(read.args, fn.parameters, fn.dates);
  const args = await validateArguments(fn.definition.parameters, raw, fn.parameters);
  if (fn.definition.logArguments) setup.log.info('arguments', { arguments: args as object });
  const abort = lazyAbort();
  const call: Call = {
    ...setup,
    conversation: read.conversation,
    unreadable: read.unreadable,
    readyAt,
    deadline,
    stop: abort.stop,
  };
  const run = () => runWithTimeout(fn, args, call, abort.signal);
  // Work already deferred, or a Worker without features: the plain path.
  return call.deferred || !feature ? run() : feature.run(fn, call, args, run);
};

/**
 * Runs one authorised function for one HTTP request and returns its JSON result; throws
 * FunctionError for every refusal. Anything else the handler throws is the caller's 500.
 */
export const invoke = (
  fn: RegisteredFunction,
  setup: CallSetup & { request: Request },
  url: URL,
  feature?: CallFeature,
): Promise<unknown> =>
  execute(
    fn,
    setup,
    async (deadline) => {
      const { request, env, log } = setup;
      const body = request.method === 'POST' ? await readBody(request, DEFAULT_BODY_LIMIT, deadline) : '';
      // Undefined when there is nothing to verify (no secret, no signature): no await on the common path.
      const verifying = checkSignature(request, url, env, body);
      if (verifying) await verifying;
      const read = rawArguments(request, url, body, fn.parameters);
      // With signing on, the ids of a call no signature vouches for are anyone's: no conversation.
      if (read.conversation && !namesConversation(request, url, env, body)) {
        log.info('conversation_unsigned');
        return { args: read.args };
      }
      return read;
    },
    feature,
  );
