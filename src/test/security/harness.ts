// Shared by the security suites: the test secrets, signed requests, and the two ways in (the real
// entry with the shipped functions, and a worker over test-only functions with an env we choose).

import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import { createWorker } from '../../createWorker.ts';
import type { AnyFunctionDefinition } from '../../define.ts';
import type { Env } from '../../env.ts';
import { functionKey } from '../../keys.ts';
import { signWebhook } from '../../platform/protocol/signature.ts';
import { rateLimits } from '../../ratelimit.ts';

export const FUNCTIONS_SECRET = 'test-functions-secret';
export const SIGNING_SECRET = 'test-signing-secret';
export const ORIGIN = 'https://functions.example.com';

/** The Worker's bindings as the tests run it (secrets from vitest.config.ts, bindings from wrangler.toml). */
export const testEnv = env as unknown as Env;

/** The real entry: the default export of worker.ts with the shipped functions. */
export const entry = (exports as unknown as { default: Fetcher }).default;

/** A fetch over test-only functions, run with `overrides` on top of the test env. */
export const workerOf = (definitions: Record<string, AnyFunctionDefinition>, overrides: Partial<Env> = {}) => {
  const { fetch } = createWorker({ functions: definitions, rateLimits });
  return async (request: Request): Promise<Response> => {
    const ctx = createExecutionContext();
    const response = await fetch(request, { ...testEnv, ...overrides }, ctx);
    await waitOnExecutionContext(ctx);
    return response;
  };
};

/** The invocation key of `name` under `secret` (the test secret by default). */
export const keyOf = (name: string, secret = FUNCTIONS_SECRET) => functionKey(secret, name);

/** Unix seconds now, as the platform stamps its requests. */
export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The signature headers of `body` signed at `timestamp` with `secret`. */
export const signatureHeaders = async (body: string, timestamp = nowSeconds(), secret = SIGNING_SECRET) => ({
  'x-webhook-timestamp': String(timestamp),
  'x-webhook-signature': await signWebhook(secret, String(timestamp), body),
});

/** A POST of `body` to function `name` with its key in the query string and the extra headers. */
export const post = async (name: string, body: string, headers: Record<string, string> = {}, secret?: string) =>
  new Request(`${ORIGIN}/functions/${name}?key=${await keyOf(name, secret)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });

/** The `error` object of a JSON error answer. */
export const errorOf = async (response: Response) =>
  ((await response.json()) as { error: { code: string; message: string; requestId: string; details?: unknown[] } })
    .error;
