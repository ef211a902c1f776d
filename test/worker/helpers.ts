import { env, exports } from 'cloudflare:workers';
import type { FunctionContext } from '../../src/define.ts';
import { functionKey } from '../../src/keys.ts';
import { createLogger } from '../../src/log.ts';

export const SECRET = 'test-functions-secret';
export const ORIGIN = 'https://functions.example.com';

/** The invocation key of `name` under the test secret. */
export const keyOf = (name: string) => functionKey(SECRET, name);

/** Sends a request through the Worker's real fetch handler. */
// `exports` is typed by `wrangler types`; this project declares its Env by hand (src/env.ts).
const worker = (exports as unknown as { default: Fetcher }).default;

export const send = (path: string, init: RequestInit = {}) => worker.fetch(new Request(`${ORIGIN}${path}`, init));

/** Calls a function the way the platform does: POST, JSON body, key in the query string. */
export const call = async (name: string, args: unknown, init: RequestInit = {}) =>
  send(`/functions/${name}?key=${await keyOf(name)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof args === 'string' ? args : JSON.stringify(args),
    ...init,
  });

/** The parsed JSON error of a refused call. */
export const errorOf = async (response: Response) =>
  ((await response.json()) as { error: { code: string; message: string; requestId: string; details?: unknown[] } })
    .error;

export { env };

/** A handler context with an empty env, for calling a handler directly without its bindings. */
export const bareContext = (): FunctionContext =>
  ({
    env: {},
    requestId: 'test',
    signal: new AbortController().signal,
    waitUntil: () => {},
    request: new Request('https://functions.example.com'),
    log: createLogger(),
  }) as unknown as FunctionContext;
