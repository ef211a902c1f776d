// Calling a project's functions inside workerd the way the platform does: through the Worker's own
// entry (worker.ts, which the vitest integration serves as `exports.default`), with each name's key.
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import type { AccountSettings } from '../account.ts';
import type { FunctionContext } from '../define.ts';
import type { Env } from '../env.ts';
import { ACCOUNT_QUERY, functionKey } from '../keys.ts';
import { createLogger } from '../log.ts';
import { webhookHeaders } from '../platform/protocol/signature.ts';

/** The origin test requests are sent to: any origin works, the Worker routes by path. */
export const ORIGIN = 'https://functions.example.com';

const secretOf = (): string => {
  const secret = (env as { FUNCTIONS_SECRET?: string }).FUNCTIONS_SECRET;
  if (!secret) {
    throw new Error(
      'FUNCTIONS_SECRET is not set in the test environment: give it to cloudflareTest({ miniflare: { bindings } }) in vitest.config.ts',
    );
  }
  return secret;
};

/**
 * The invocation key of `name` under the test environment's FUNCTIONS_SECRET: the first account's,
 * or `account`'s (docs/platform-contract.md §10).
 * @example await fetch(`${ORIGIN}/functions/lookup_order?key=${await keyOf('lookup_order')}`)
 */
export const keyOf = (name: string, secret: string = secretOf(), account?: string): Promise<string> =>
  functionKey(secret, name, account);

/** Anything that answers a request: the Worker's entry, or a Worker made in the test. */
export interface FetchTarget {
  fetch(request: Request): Promise<Response>;
}

/** `send` (any path) and `call` (a function, as the platform calls it) through one Worker. */
export interface Caller {
  send(path: string, init?: RequestInit): Promise<Response>;
  call(name: string, args: unknown, init?: RequestInit): Promise<Response>;
}

/**
/** How `through` calls: as which account, and whether it signs. */
export interface CallOptions {
  /** Call this account's urls (docs/platform-contract.md §10) instead of the first account's. */
  account?: string | undefined;
  /** The Worker's PLATFORM_SIGNING_SECRET: `call` signs each POST body as the platform does, so the conversation ids it carries count (§9). */
  signingSecret?: string | undefined;
}

/**
 * A caller through `worker`, as the platform calls it: through the first account's urls, or
 * `options.account`'s, signing each POST body with `options.signingSecret` when given; headers
 * given in `init` come on top.
 * @example const { call } = through({ fetch: (r) => worker.fetch(r, env, createExecutionContext()) })
 * @example const { call } = through(target, { account: 'client-acme' })
 */
export const through = (worker: FetchTarget, options: CallOptions = {}): Caller => {
  const { account, signingSecret } = options;
  const send = (path: string, init: RequestInit = {}) => worker.fetch(new Request(`${ORIGIN}${path}`, init));
  const accountQuery = account === undefined ? '' : `${ACCOUNT_QUERY}=${encodeURIComponent(account)}&`;
  const call = async (name: string, args: unknown, init: RequestInit = {}) => {
    const made: RequestInit = {
      method: 'POST',
      body: typeof args === 'string' ? args : JSON.stringify(args),
      ...init,
    };
    const headers = new Headers({ 'content-type': 'application/json' });
    if (signingSecret && made.method === 'POST' && typeof made.body === 'string') {
      for (const [header, value] of Object.entries(await webhookHeaders(signingSecret, made.body)))
        headers.set(header, value);
    }
    for (const [header, value] of new Headers(init.headers)) headers.set(header, value);
    return send(`/functions/${name}?${accountQuery}key=${await keyOf(name, secretOf(), account)}`, {
      ...made,
      headers,
    });
  };
  return { send, call };
};

const signingSecretOf = (environment: Env): string | undefined => environment.PLATFORM_SIGNING_SECRET || undefined;

// `exports` is typed by `wrangler types` only in the project whose worker.ts it read.
const entry: FetchTarget = {
  fetch: (request) => (exports as unknown as { default: Fetcher }).default.fetch(request),
};

/**
 * Calls a function through the project's own Worker (worker.ts), as the platform does: POST, JSON
 * body, the name's key in the url, signed when the test env sets PLATFORM_SIGNING_SECRET.
 * @example const response = await call('lookup_order', { orderNumber: '1042' })
 */
export const call: Caller['call'] = (name, args, init) =>
  through(entry, { signingSecret: signingSecretOf(env as Env) }).call(name, args, init);

/**
 * Sends a request to any path of the project's own Worker.
 * @example await send('/functions', { headers: { authorization: `Bearer ${key}` } })
 */
export const send: Caller['send'] = (path, init) => through(entry).send(path, init);

/** A Worker as worker.ts default-exports it (what createWorker returns). */
export interface WorkerEntry {
  fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response>;
}

/**
 * A caller through `worker` with `environment` instead of the test env: unset a setting by giving it
 * `undefined`. Work the call leaves to `waitUntil` is finished before the answer is returned. With
 * `account`, it calls that account's urls.
 * @example await withEnv(worker, { ...env, TEAM_CONTACT_ID: undefined }).call('notify_team', args)
 */
export const withEnv = (worker: WorkerEntry, environment: Env, account?: string): Caller =>
  through(
    {
      fetch: async (request) => {
        const ctx = createExecutionContext();
        const response = await worker.fetch(request, environment, ctx);
        await waitOnExecutionContext(ctx);
        return response;
      },
    },
    { account, signingSecret: signingSecretOf(environment) },
  );

/** The JSON error of a refused call: `code`, `message` (for the model), `requestId`, `details` for a 422. */
export interface ErrorAnswer {
  code: string;
  message: string;
  requestId: string;
  details?: unknown[];
}

/**
 * The error of a refused call.
 * @example expect((await errorOf(response)).code).toBe('invalid_arguments')
 */
export const errorOf = async (response: Response): Promise<ErrorAnswer> =>
  ((await response.json()) as { error: ErrorAnswer }).error;

/**
 * A handler context with an empty env, for calling a handler directly, without its bindings: in
 * account "default" with `settings` (none by default) and no secrets.
 * @example await definition.handler(args, bareContext({ timezone: 'Europe/Paris' }))
 */
export const bareContext = (settings: AccountSettings = {}): FunctionContext =>
  ({
    env: {},
    requestId: 'test',
    signal: new AbortController().signal,
    waitUntil: () => {},
    request: new Request(ORIGIN),
    log: createLogger(),
    account: { name: 'default', first: true, settings, secret: () => undefined },
  }) as unknown as FunctionContext;
