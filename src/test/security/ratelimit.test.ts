import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createWorker } from '../../createWorker.ts';
import { type AnyFunctionDefinition, defineFunction } from '../../define.ts';
import { manifestKey } from '../../keys.ts';
import { RATE_LIMIT_RETRY_AFTER_SECONDS } from '../../ratelimit.ts';
import { errorOf, FUNCTIONS_SECRET, ORIGIN, post, testEnv, workerOf } from './harness.ts';

/** The `limit` of FUNCTION_RATE_LIMIT in wrangler.toml. */
const LIMIT = 60;

const counted = (rateLimit?: AnyFunctionDefinition['rateLimit']) => {
  const calls = { count: 0 };
  const definition = defineFunction({
    description: 'Pretends to call a paid API. Used by the rate-limit tests only.',
    parameters: z.object({ query: z.string().describe('What to look up') }),
    handler: ({ query }) => {
      calls.count++;
      return { query };
    },
    ...(rateLimit ? { rateLimit } : {}),
  });
  return { definition, calls };
};

// Names no other test uses, so every test starts with a full budget.
const uniqueName = (base: string) => `${base}_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;

/** Calls `name` until the first 429; the fixed window may roll over once, so 2 * LIMIT + 1 calls suffice. */
const callUntilRefused = async (fetch: (r: Request) => Promise<Response>, name: string, ip = '198.51.100.7') => {
  for (let i = 1; i <= 2 * LIMIT + 1; i++) {
    const response = await fetch(await post(name, '{"query":"x"}', { 'cf-connecting-ip': ip }));
    if (response.status === 429) return { response, calls: i };
    expect(response.status).toBe(200);
  }
  throw new Error(`no 429 after ${2 * LIMIT + 1} calls`);
};

describe('per-function rate limiting (FUNCTION_RATE_LIMIT)', () => {
  it('is bound under miniflare from wrangler.toml', () => {
    expect(typeof testEnv.FUNCTION_RATE_LIMIT?.limit).toBe('function');
  });

  it('answers 429 with Retry-After and a message the model can act on, without running the handler', async () => {
    const name = uniqueName('paid_lookup');
    const { definition, calls } = counted({ key: 'function' });
    const fetch = workerOf({ [name]: definition });
    const { response, calls: sent } = await callUntilRefused(fetch, name);
    expect(sent).toBeGreaterThan(LIMIT);
    expect(response.headers.get('retry-after')).toBe(String(RATE_LIMIT_RETRY_AFTER_SECONDS));
    expect(response.headers.get('x-request-id')).toBeTruthy();
    const error = await errorOf(response);
    expect(error.code).toBe('rate_limited');
    expect(error.message).toMatch(/try again in a minute/);
    expect(calls.count).toBe(sent - 1);
  });

  it('keeps one budget per function: another function is not refused', async () => {
    const [a, b] = [uniqueName('paid_a'), uniqueName('paid_b')];
    const fetch = workerOf({
      [a]: counted({ key: 'function' }).definition,
      [b]: counted({ key: 'function' }).definition,
    });
    await callUntilRefused(fetch, a);
    expect((await fetch(await post(b, '{"query":"x"}'))).status).toBe(200);
  });

  it("with key 'caller', refuses the noisy caller and still serves another", async () => {
    const name = uniqueName('paid_caller');
    const fetch = workerOf({ [name]: counted({ key: 'caller' }).definition });
    await callUntilRefused(fetch, name, '203.0.113.1');
    expect((await fetch(await post(name, '{"query":"x"}', { 'cf-connecting-ip': '203.0.113.2' }))).status).toBe(200);
  });

  it('does not count calls refused for a wrong key, so a stranger cannot spend the budget', async () => {
    const name = uniqueName('paid_guarded');
    const { definition, calls } = counted({ key: 'function' });
    const fetch = workerOf({ [name]: definition });
    for (let i = 0; i < 2 * LIMIT + 1; i++) {
      const response = await fetch(new Request(`https://x.example/functions/${name}?key=wrong`, { method: 'POST' }));
      expect(response.status).toBe(401);
    }
    expect((await fetch(await post(name, '{"query":"x"}'))).status).toBe(200);
    expect(calls.count).toBe(1);
  });

  it('never limits a function that did not opt in', async () => {
    const name = uniqueName('free_lookup');
    const fetch = workerOf({ [name]: counted().definition });
    for (let i = 0; i < 2 * LIMIT + 1; i++) expect((await fetch(await post(name, '{"query":"x"}'))).status).toBe(200);
  });

  it('refuses with 503 (fails closed) when the function opted in but the binding is missing', async () => {
    const name = uniqueName('paid_unbound');
    const { definition, calls } = counted({ key: 'function' });
    const response = await workerOf(
      { [name]: definition },
      { FUNCTION_RATE_LIMIT: undefined },
    )(await post(name, '{"query":"x"}'));
    expect(response.status).toBe(503);
    expect((await errorOf(response)).code).toBe('not_configured');
    expect(calls.count).toBe(0);
  });

  it('refuses the definition (fails closed) in a Worker without the rateLimits option, naming the fix', async () => {
    const name = uniqueName('paid_optionless');
    const { definition, calls } = counted({ key: 'function' });
    const { fetch } = createWorker({ functions: { [name]: definition } });
    const ctx = createExecutionContext();
    const manifest = await fetch(
      new Request(`${ORIGIN}/functions`, {
        headers: { authorization: `Bearer ${await manifestKey(FUNCTIONS_SECRET)}` },
      }),
      testEnv,
      ctx,
    );
    expect(manifest.status).toBe(500);
    expect((await errorOf(manifest)).message).toBe(
      `Function "${name}": rateLimit needs createWorker's rateLimits option (rateLimits from agent-functions/worker in worker.ts).`,
    );
    const response = await fetch(await post(name, '{"query":"x"}'), testEnv, ctx);
    await waitOnExecutionContext(ctx);
    expect(response.status).toBe(500);
    expect(calls.count).toBe(0);
  });
});
