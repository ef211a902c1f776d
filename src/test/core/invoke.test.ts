import { createExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createWorker } from '../../createWorker.ts';
import { defineFunction } from '../../define.ts';
import type { Env } from '../../env.ts';
import { functionKey, manifestKey } from '../../keys.ts';
import { setLogSink } from '../../log.ts';
import { withUnbuilt } from '../../unbuilt.ts';
import { call, send } from '../fixture.ts';
import { errorOf, keyOf, SECRET as SECRET_OF_TESTS } from '../helpers.ts';

const SECRET = 'unit-secret';
let aborted: unknown;
let lateAborted: unknown;

const fetchTest = createWorker({
  // being_fixed: a function file that does not build, as generate marks it under npm run dev.
  functions: withUnbuilt(
    {
      boom: defineFunction({
        description: 'Always throws, to prove failures reveal nothing.',
        parameters: z.object({}),
        handler: () => {
          throw new Error(`database password is ${SECRET}`);
        },
      }),
      slow: defineFunction({
        description: 'Waits longer than its own time limit.',
        parameters: z.object({}),
        timeoutMs: 50,
        handler: async (_args, { signal }) => {
          await new Promise((resolve) => setTimeout(resolve, 500));
          aborted = signal.aborted ? signal.reason : false;
          return 'late';
        },
      }),
      slow_reader: defineFunction({
        description: 'Looks at its signal only after its time limit has passed.',
        parameters: z.object({}),
        timeoutMs: 50,
        handler: async (_args, context) => {
          await new Promise((resolve) => setTimeout(resolve, 300));
          lateAborted = context.signal.aborted ? context.signal.reason : false;
          return 'late';
        },
      }),
      echo: defineFunction({
        description: 'Returns its arguments, to observe envelopes and coercion.',
        parameters: z.object({
          count: z.int().min(1).describe('How many'),
          urgent: z.boolean().default(false).describe('Whether it is urgent'),
          when: z.date().optional().describe('When'),
          tags: z.array(z.string()).optional().describe('Tags'),
        }),
        handler: (args, { requestId, env }) => ({
          ...args,
          when: args.when?.toISOString(),
          requestId,
          hasEnv: Boolean(env),
        }),
      }),
      discount: defineFunction({
        description: 'Reads a declared secret and a declared var, as a handler calling an API does.',
        parameters: z.object({}),
        secrets: ['DISCOUNT_API_KEY'],
        vars: ['DISCOUNT_REGION'],
        handler: (_args, { env }) => ({
          keyLength: (env as unknown as Record<string, string>).DISCOUNT_API_KEY?.length,
        }),
      }),
      context_parts: defineFunction({
        description: 'Takes its context apart, as handlers do, and says what it found.',
        parameters: z.object({}),
        handler: (_args, context) => {
          const { env: handlerEnv, requestId, signal, waitUntil, request: raw, log, account, deferred } = context;
          waitUntil(Promise.resolve());
          log.info('context_parts', {});
          return {
            env: Boolean(handlerEnv),
            requestId,
            aborted: signal.aborted,
            method: raw?.method,
            account: account.name,
            deferred: deferred ?? false,
            keys: Object.keys({ ...context }).sort(),
          };
        },
      }),
      input_echo: defineFunction({
        description: 'Declares a parameter named like an envelope key.',
        parameters: z.object({ input: z.string().describe('Free text') }),
        handler: ({ input }) => ({ input }),
      }),
    },
    ['being_fixed'],
  ),
}).fetch;

const env = (extra: Partial<Env> = {}): Env => ({ FUNCTIONS_SECRET: SECRET, ...extra });

const request = async (name: string, init: RequestInit & { query?: string } = {}, environment = env()) => {
  const key = await functionKey(SECRET, name);
  const url = `https://fn.example/functions/${name}?key=${key}${init.query ?? ''}`;
  return fetchTest(new Request(url, { method: 'POST', ...init }), environment, createExecutionContext());
};

describe('the Worker answers each status of docs/platform-contract.md §4', () => {
  it('answers 200 with the handler result as JSON and an X-Request-Id', async () => {
    const res = await call('quote_plan', { plan: 'growth', seats: 3 });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(/^[\w-]{8,}$/);
    expect(await res.json()).toMatchObject({ plan: 'growth', seats: 3, totalCents: 8700, currency: 'USD' });
  });

  it('hands the handler a context it can take apart: env, request id, signal, waitUntil, request, log and account', async () => {
    const response = await request('context_parts', { body: '{}' });
    expect(response.status).toBe(200);
    const found = (await response.json()) as Record<string, unknown>;
    expect(found).toMatchObject({
      env: true,
      requestId: response.headers.get('x-request-id'),
      aborted: false,
      method: 'POST',
      account: 'default',
      deferred: false,
    });
    // Spread, it keeps its plain fields; signal and platform are made on first use.
    expect(found.keys).toEqual(expect.arrayContaining(['account', 'env', 'log', 'request', 'requestId', 'waitUntil']));
  });

  it('answers 400 for a body that is not JSON', async () => {
    const res = await call('quote_plan', '{"plan": ');
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toMatchObject({
      code: 'malformed_body',
      message: expect.stringMatching(/not valid JSON/),
    });
  });

  it('answers 400 for JSON that is not an object', async () => {
    const res = await call('quote_plan', '[1,2]');
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toMatch(/must be a JSON object/);
  });

  it('answers 401 without a key', async () => {
    const res = await send('/functions/quote_plan', { method: 'POST', body: '{}' });
    expect(res.status).toBe(401);
    expect((await errorOf(res)).code).toBe('unauthorized');
  });

  it('answers 404 to the holder of the key of a function no longer deployed, and for paths outside /functions', async () => {
    const unknown = await send(`/functions/nope?key=${await keyOf('nope')}`, { method: 'POST', body: '{}' });
    expect(unknown.status).toBe(404);
    expect((await errorOf(unknown)).message).toMatch(/no longer deployed\. Do not call it again/);
    expect((await send('/')).status).toBe(404);
  });

  it('answers 405 for methods other than GET and POST, with Allow', async () => {
    const res = await send(`/functions/quote_plan?key=${await keyOf('quote_plan')}`, { method: 'PUT', body: '{}' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, POST');
  });

  it('answers 413 for a body over 64 KiB, declared or streamed', async () => {
    const big = JSON.stringify({ plan: 'growth', seats: 1, pad: 'x'.repeat(70 * 1024) });
    expect((await call('quote_plan', big)).status).toBe(413);
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 70; i++) controller.enqueue(new TextEncoder().encode('x'.repeat(1024)));
        controller.close();
      },
    });
    const res = await request('echo', { body: stream, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
    expect((await errorOf(res)).code).toBe('body_too_large');
  });

  it('answers 422 naming each wrong or missing argument, what is expected, an example, and to ask the customer', async () => {
    const res = await call('quote_plan', { plan: 'platinum', seats: 0 });
    expect(res.status).toBe(422);
    const error = await errorOf(res);
    expect(error.code).toBe('invalid_arguments');
    expect(error.message).toMatch(/2 arguments are wrong/);
    expect(error.message).toMatch(
      /"plan" \(The plan the customer asked about\) is not valid.*Expected a string, one of "starter", "growth", "scale"\. For example: "starter"/,
    );
    expect(error.message).toMatch(/"seats".*Expected a whole number, from 1 to 500\. For example: 1/);
    expect(error.details).toEqual([
      expect.objectContaining({ argument: 'plan', example: 'starter' }),
      expect.objectContaining({ argument: 'seats', example: 1 }),
    ]);
  });

  it("says what is wrong in the answer's own words, never zod's before them", async () => {
    const big = await errorOf(await call('quote_plan', { plan: 'growth', seats: 501 }));
    expect(big.message).toContain(
      '"seats" (How many users will need access) is not valid: too large. Expected a whole number, from 1 to 500. For example: 1.',
    );
    const small = await errorOf(await call('quote_plan', { plan: 'growth', seats: 0 }));
    expect(small.message).toContain('is not valid: too small. Expected a whole number, from 1 to 500.');
    const typed = await errorOf(await call('quote_plan', { plan: 'growth', seats: 'many' }));
    expect(typed.message).toContain('is not valid: not a number. Expected a whole number, from 1 to 500.');
    for (const error of [big, small, typed])
      expect(error.message).not.toMatch(/Too (big|small)|expected number|Invalid input/);
  });

  it('answers 422 telling the model to ask the customer for a missing argument', async () => {
    const res = await call('quote_plan', { plan: 'growth' });
    const error = await errorOf(res);
    expect(res.status).toBe(422);
    expect(error.message).toMatch(/"seats" \(How many users will need access\) is missing: ask the customer for it/);
    expect(error.details).toEqual([
      expect.objectContaining({ argument: 'seats', problem: 'missing', askCustomer: true }),
    ]);
  });

  it('answers 500 with a request id and neither the stack nor the secret when the handler throws', async () => {
    const res = await request('boom', { body: '{}' });
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toContain(SECRET);
    expect(text).not.toMatch(/at .*\.ts|Error:/);
    const { error } = JSON.parse(text);
    expect(error.code).toBe('function_failed');
    expect(error.requestId).toBe(res.headers.get('x-request-id'));
    expect(error.message).toContain(error.requestId);
  });

  it('answers 503 in production when FUNCTIONS_SECRET is unset', async () => {
    const res = await request('echo', { body: '{"count":1}' }, {});
    expect(res.status).toBe(503);
    expect((await errorOf(res)).code).toBe('not_configured');
  });

  it('logs the cause of that 503 beside it: FUNCTIONS_SECRET is unset, and how to put it', async () => {
    const lines: Record<string, unknown>[] = [];
    const restore = setLogSink((line) => lines.push(JSON.parse(line)));
    try {
      await request('echo', { body: '{"count":1}' }, {});
    } finally {
      setLogSink(restore);
    }
    const cause = lines.find((line) => line.event === 'functions_secret_missing');
    expect(cause).toMatchObject({ level: 'error' });
    expect(String(cause?.hint)).toContain('wrangler secret put FUNCTIONS_SECRET');
    expect(lines.find((line) => line.event === 'invocation')).toMatchObject({ status: 503, code: 'not_configured' });
  });

  it('answers 503 not_configured for a function whose declared secret or var is unset, naming it in the log only', async () => {
    const lines: Record<string, unknown>[] = [];
    const restore = setLogSink((line) => lines.push(JSON.parse(line)));
    let res: Response;
    try {
      res = await request(
        'discount',
        { body: '{}' },
        env({ DISCOUNT_REGION: 'eu', DISCOUNT_API_KEY: '' } as Partial<Env>),
      );
    } finally {
      setLogSink(restore);
    }
    expect(res.status).toBe(503);
    const text = await res.text();
    expect(JSON.parse(text).error.code).toBe('not_configured');
    expect(text).not.toContain('DISCOUNT');
    expect(lines.find((line) => line.event === 'setting_missing')).toMatchObject({
      level: 'error',
      function: 'discount',
      missing: 'DISCOUNT_API_KEY',
    });
    expect(lines.some((line) => line.event === 'invocation_failed' || /TypeError/.test(JSON.stringify(line)))).toBe(
      false,
    );
    const set = await request(
      'discount',
      { body: '{}' },
      env({ DISCOUNT_REGION: 'eu', DISCOUNT_API_KEY: 'k-123' } as Partial<Env>),
    );
    expect(set.status).toBe(200);
    expect(await set.json()).toEqual({ keyLength: 5 });
  });

  it("refuses a call it cannot trust (401) before saying a function's setting is unset", async () => {
    const unsigned = await request(
      'discount',
      { body: '{}' },
      env({
        DISCOUNT_REGION: 'eu',
        DISCOUNT_API_KEY: '',
        PLATFORM_SIGNING_SECRET: 'signing-secret-for-this-test',
        PLATFORM_SIGNATURE_REQUIRED: 'true',
      } as Partial<Env>),
    );
    expect(unsigned.status).toBe(401);
  });

  it('in local development only, logs what a throwing handler threw: its message and where', async () => {
    const logged = async (env: Partial<Env>, query = '') => {
      const lines: Record<string, unknown>[] = [];
      const restore = setLogSink((line) => lines.push(JSON.parse(line)));
      try {
        await fetchTest(
          new Request(`http://127.0.0.1:8787/functions/boom${query}`, { method: 'POST', body: '{}' }),
          env as Env,
          createExecutionContext(),
        );
      } finally {
        setLogSink(restore);
      }
      return lines.find((line) => line.event === 'handler_failed');
    };
    const dev = await logged({ AGENT_FUNCTIONS_MODE: 'development' });
    expect(dev).toMatchObject({ error: 'Error', message: `database password is ${SECRET}` });
    expect(String(dev?.at)).toMatch(/invoke\.test\.ts:\d+:\d+/);
    // Deployed, the line names the kind of error only: a message may carry what must not be logged.
    const production = await logged({ FUNCTIONS_SECRET: SECRET }, `?key=${await functionKey(SECRET, 'boom')}`);
    expect(production).toEqual(expect.objectContaining({ error: 'Error' }));
    expect(production).not.toHaveProperty('message');
    expect(production).not.toHaveProperty('at');
  });

  it('serves without a key in local development when FUNCTIONS_SECRET is unset', async () => {
    const res = await fetchTest(
      new Request('http://127.0.0.1:8787/functions/echo', { method: 'POST', body: '{"count":1}' }),
      { AGENT_FUNCTIONS_MODE: 'development' },
      createExecutionContext(),
    );
    expect(res.status).toBe(200);
  });

  it('in local development, answers a name it never had with 404, as in production', async () => {
    const res = await fetchTest(
      new Request('http://127.0.0.1:8787/functions/never_had', { method: 'POST', body: '{}' }),
      { AGENT_FUNCTIONS_MODE: 'development' },
      createExecutionContext(),
    );
    expect(res.status).toBe(404);
    expect((await errorOf(res)).code).toBe('unknown_function');
  });

  it('in local development, answers a file that does not build with 503 and "try again", never "no longer deployed"', async () => {
    // Under npm run dev generate leaves that file out and marks its name: dev keeps its registration.
    const res = await fetchTest(
      new Request('http://127.0.0.1:8787/functions/being_fixed', { method: 'POST', body: '{}' }),
      { AGENT_FUNCTIONS_MODE: 'development' },
      createExecutionContext(),
    );
    expect(res.status).toBe(503);
    const { code, message } = await errorOf(res);
    expect(code).toBe('not_served_now');
    expect(message).toBe(
      'This function is not available right now. Try again in a minute; if it still fails, tell the customer you cannot do this at the moment.',
    );
  });

  it('hands an aborted signal to a handler that first reads it after the time limit', async () => {
    const res = await request('slow_reader', { body: '{}' });
    expect(res.status).toBe(504);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(lateAborted).toBeInstanceOf(DOMException);
    expect((lateAborted as DOMException).name).toBe('TimeoutError');
  });

  it('answers 504 past the time limit and fires the handler signal', async () => {
    const res = await request('slow', { body: '{}' });
    expect(res.status).toBe(504);
    expect((await errorOf(res)).code).toBe('timeout');
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(aborted).toBeInstanceOf(DOMException);
    expect((aborted as DOMException).name).toBe('TimeoutError');
  });
});

describe('arguments as the platform may send them', () => {
  it('unwraps the arguments from each envelope key', async () => {
    for (const envelope of ['arguments', 'args', 'parameters', 'input']) {
      const res = await request('echo', { body: JSON.stringify({ [envelope]: { count: 2 }, contactId: 'c1' }) });
      expect(res.status, envelope).toBe(200);
      expect(await res.json()).toMatchObject({ count: 2, urgent: false });
    }
  });

  it('unwraps arguments sent as a JSON string', async () => {
    const res = await request('echo', { body: JSON.stringify({ arguments: '{"count":4}' }) });
    expect(await res.json()).toMatchObject({ count: 4 });
  });

  it('does not unwrap a key the schema declares', async () => {
    const res = await request('input_echo', { body: JSON.stringify({ input: 'hello' }) });
    expect(await res.json()).toEqual({ input: 'hello' });
  });

  it('reads GET query arguments, coercing numbers, booleans, dates and repeated keys', async () => {
    const res = await request('echo', {
      method: 'GET',
      query: '&count=3&urgent=true&when=2026-05-01T10:00:00Z&tags=a&tags=b',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      count: 3,
      urgent: true,
      when: '2026-05-01T10:00:00.000Z',
      tags: ['a', 'b'],
    });
  });

  it('coerces stringly numbers and booleans in a JSON body, but not ambiguous ones', async () => {
    expect(await (await request('echo', { body: '{"count":"7","urgent":"false"}' })).json()).toMatchObject({
      count: 7,
      urgent: false,
    });
    const res = await request('echo', { body: '{"count":"seven","urgent":"yes"}' });
    expect(res.status).toBe(422);
  });

  it('ignores keys the schema does not declare, such as platform identifiers', async () => {
    const res = await request('echo', { body: '{"count":1,"conversationId":"abc"}' });
    const body = await res.json();
    expect(body).toMatchObject({ count: 1 });
    expect(body).not.toHaveProperty('conversationId');
  });

  it('treats an empty POST body as no arguments', async () => {
    const res = await request('echo', { body: '', query: '&count=5' });
    expect(await res.json()).toMatchObject({ count: 5 });
  });

  it('generates the request id itself, never taking the caller one', async () => {
    const res = await request('echo', { body: '{"count":1}', headers: { 'x-request-id': 'platform-req-12345' } });
    const id = res.headers.get('x-request-id');
    expect(id).not.toBe('platform-req-12345');
    expect(await res.json()).toMatchObject({ requestId: id });
  });
});

describe('the manifest at GET /functions', () => {
  it('needs the manifest key derived from FUNCTIONS_SECRET in production, never the secret itself', async () => {
    const list = async () =>
      send('/functions', { headers: { authorization: `Bearer ${await manifestKey(SECRET_OF_TESTS)}` } });
    expect((await send('/functions')).status).toBe(401);
    expect((await send('/functions', { headers: { authorization: `Bearer ${SECRET_OF_TESTS}` } })).status).toBe(401);
    expect(
      (await send('/functions', { headers: { authorization: `Bearer ${await keyOf('quote_plan')}` } })).status,
    ).toBe(401);
    expect((await send('/functions', { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    const res = await list();
    expect(res.status).toBe(200);
    const { functions } = (await res.json()) as { functions: { name: string; path: string; parameters: object }[] };
    expect(functions.map((f) => f.name)).toEqual(['cancel_plan', 'quote_plan', 'tell_time']);
    expect(functions.find((f) => f.name === 'quote_plan')).toMatchObject({
      path: '/functions/quote_plan',
      parameters: { plan: 'string', seats: 'number', billing: 'string', currency: 'string' },
    });
  });

  it('is open in local development', async () => {
    const res = await fetchTest(
      new Request('http://127.0.0.1:8787/functions'),
      { AGENT_FUNCTIONS_MODE: 'development' },
      createExecutionContext(),
    );
    expect(res.status).toBe(200);
    expect(((await res.json()) as { functions: unknown[] }).functions).toHaveLength(7);
  });
});

describe('the paths besides /functions/<name>', () => {
  it('answers another method on the manifest with 405 and Allow: GET', async () => {
    const res = await send('/functions', { method: 'POST', body: '{}' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    expect((await errorOf(res)).code).toBe('method_not_allowed');
  });

  it('answers 404 where nothing is served, even beside a served path', async () => {
    for (const path of ['/', '/nothing', '/functionsx', '/mcpx', '/oauthx', '//functions']) {
      const res = await send(path);
      expect({ path, status: res.status, code: (await errorOf(res)).code }).toEqual({
        path,
        status: 404,
        code: 'not_found',
      });
    }
  });

  it('routes a path with trailing slashes, and every path under a prefix, as the path itself', async () => {
    const mcp = await send('/mcp', { method: 'POST', body: '{}' });
    expect(mcp.status).not.toBe(404);
    expect((await send('/mcp//', { method: 'POST', body: '{}' })).status).toBe(mcp.status);
    const metadata = await send('/.well-known/oauth-protected-resource/mcp');
    expect(metadata.status).toBe(200);
  });
});

describe('a definition the platform cannot carry', () => {
  it('makes the manifest answer 500 naming the function and the field', async () => {
    const broken = createWorker({
      functions: {
        mixed: defineFunction({
          description: 'Takes a value of two types, which the flat map cannot express.',
          parameters: z.object({ when: z.union([z.string(), z.number()]).describe('When') }),
          handler: () => null,
        }),
      },
    }).fetch;
    const res = await broken(
      new Request('http://127.0.0.1:8787/functions'),
      { AGENT_FUNCTIONS_MODE: 'development' },
      createExecutionContext(),
    );
    expect(res.status).toBe(500);
    expect(await errorOf(res)).toMatchObject({
      code: 'invalid_definition',
      message: expect.stringMatching(/Function "mixed", parameter "when": is a union of string and number/),
    });
  });
});
