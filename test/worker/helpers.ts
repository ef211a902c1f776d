import { env, exports } from 'cloudflare:workers';
import type { FunctionContext } from '../../src/define.ts';
import { functionKey } from '../../src/keys.ts';
import { createLogger } from '../../src/log.ts';

export const SECRET = 'test-functions-secret';
export const ORIGIN = 'https://functions.example.com';

/** The invocation key of `name` under the test secret. */
export const keyOf = (name: string) => functionKey(SECRET, name);

/** `send` (a path) and `call` (a function, as the platform does) through `worker`. */
export const through = (worker: { fetch(request: Request): Promise<Response> }) => {
  const send = (path: string, init: RequestInit = {}) => worker.fetch(new Request(`${ORIGIN}${path}`, init));
  const call = async (name: string, args: unknown, init: RequestInit = {}) =>
    send(`/functions/${name}?key=${await keyOf(name)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof args === 'string' ? args : JSON.stringify(args),
      ...init,
    });
  return { send, call };
};

/** Through the Worker's real entry (worker.ts), serving functions/. */
// `exports` is typed by `wrangler types` only in a project whose worker.ts it has read.
export const { send, call } = through((exports as unknown as { default: Fetcher }).default);

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
