// The one record of every call (src/record.ts, docs/observability.md): an HTTP or MCP call makes
// exactly one, logged as the `invocation` line and handed to the record sink, refusals before
// validation included, naming no account or function the call did not prove.

import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createWorker } from '../../createWorker.ts';
import { defineFunction } from '../../define.ts';
import type { Env } from '../../env.ts';
import { manifestKey } from '../../keys.ts';
import { setLogSink } from '../../log.ts';
import { mcpOnDemand } from '../../mcp/onDemand.ts';
import { callMetrics } from '../../metrics/index.ts';
import { RUNTIME_TRACING } from '../../metrics/trace.ts';
import { rateLimits } from '../../ratelimit.ts';
import { type CallRecord, setRecordSink } from '../../record.ts';
import { withEnv } from '../../testing/call.ts';
import { descriptionVersion } from '../../version.ts';
import { call, FIXTURE_FUNCTIONS, fixture, send } from '../fixture.ts';
import { env, envWithoutFigures, restoreRecordSinkAfterAll, through } from '../helpers.ts';
import { connect, loadMcp, MCP_IMPORT_TIMEOUT_MS, staticToken } from '../mcp/helpers.ts';

restoreRecordSinkAfterAll();

/**
 * The fixture's functions served with the metrics option, whose sink stamps each record with its
 * description version (and its span, and its figures). The option installs its sink for the whole
 * isolate: the tests' own sink below hands it only the records of calls through `meteredFetch`
 * (their environment tells them apart).
 */
const metered = createWorker({
  functions: FIXTURE_FUNCTIONS,
  mcp: mcpOnDemand(() => import('../../mcp/index.ts')),
  metrics: callMetrics(),
});
/** The environment of calls through `meteredFetch`: without the figures' bindings, so nothing is flushed. */
const meteredEnv = envWithoutFigures();
const meteredFetch = async (request: Request): Promise<Response> => {
  const ctx = createExecutionContext();
  const response = await metered.fetch(request, meteredEnv, ctx);
  await waitOnExecutionContext(ctx);
  return response;
};

const records: CallRecord[] = [];
const lines: Array<Record<string, unknown>> = [];
let metricsSink: ReturnType<typeof setRecordSink>;
let previousLog: ReturnType<typeof setLogSink>;
beforeAll(async () => {
  metricsSink = setRecordSink((record, recordEnv, ctx) => {
    if (recordEnv === meteredEnv) metricsSink?.(record, recordEnv, ctx);
    records.push(record);
  });
  previousLog = setLogSink((line) => lines.push(JSON.parse(line)));
  await loadMcp();
}, MCP_IMPORT_TIMEOUT_MS);
afterAll(() => {
  setLogSink(previousLog);
});
afterEach(() => {
  records.length = 0;
  lines.length = 0;
});

/** The one record made since the test began, and its log line: they say the same. */
const onlyRecord = (): CallRecord => {
  expect(records).toHaveLength(1);
  const invocations = lines.filter((line) => line.event === 'invocation');
  expect(invocations).toHaveLength(1);
  const [record] = records as [CallRecord];
  expect(invocations[0]).toMatchObject(JSON.parse(JSON.stringify(record)));
  return record;
};

/** What sync registers of each fixture function, from the manifest it reads. */
let registered: Record<string, { name: string; description: string; parameters: Record<string, string> }> = {};
beforeAll(async () => {
  const response = await send('/functions', {
    headers: { authorization: `Bearer ${await manifestKey((env as Env).FUNCTIONS_SECRET ?? '')}` },
  });
  const { functions } = (await response.json()) as { functions: Array<(typeof registered)[string]> };
  registered = Object.fromEntries(functions.map((fn) => [fn.name, fn]));
});
/** quote_plan's version as sync and stats compute it from the manifest. */
const quoteVersion = () => descriptionVersion(registered.quote_plan as (typeof registered)[string]);

describe('the record of an HTTP call', () => {
  it('names the account, function, transport, kind, outcome, status, duration and version of a call that ran', async () => {
    const response = await through({ fetch: meteredFetch }).call('quote_plan', { plan: 'growth', seats: 3 });
    expect(response.status).toBe(200);
    expect(onlyRecord()).toEqual({
      account: 'default',
      function: 'quote_plan',
      transport: 'http',
      kind: 'call',
      outcome: 'ok',
      status: 200,
      durationMs: expect.any(Number),
      version: quoteVersion(),
      requestId: response.headers.get('x-request-id'),
    });
    expect(quoteVersion()).toMatch(/^[0-9a-f]{8}$/);
  });

  it('has no version without the metrics option, which brings the versioner', async () => {
    const response = await call('quote_plan', { plan: 'growth', seats: 3 });
    expect(response.status).toBe(200);
    const record = onlyRecord();
    expect(record).toMatchObject({ function: 'quote_plan', outcome: 'ok' });
    expect(record.version).toBeUndefined();
  });

  it('says refused with the code of a refusal after validation', async () => {
    await call('quote_plan', { plan: 'growth' });
    expect(onlyRecord()).toMatchObject({
      account: 'default',
      function: 'quote_plan',
      outcome: 'refused',
      status: 422,
      code: 'invalid_arguments',
    });
  });

  it('records a 401 with neither account nor function: the name and account are the caller’s text', async () => {
    const response = await send('/functions/quote_plan?key=wrong&account=client-who');
    expect(response.status).toBe(401);
    expect(onlyRecord()).toMatchObject({ account: null, function: null, outcome: 'refused', status: 401 });
    expect(JSON.stringify(lines)).not.toContain('client-who');
  });

  it('records a name the Worker does not serve (404) without it', async () => {
    const response = await call('no_such_function', {});
    expect(response.status).toBe(404);
    const record = onlyRecord();
    expect(record).toMatchObject({ account: null, function: null, status: 404, code: 'unknown_function' });
    expect(record.version).toBeUndefined();
    expect(JSON.stringify(records)).not.toContain('no_such_function');
  });

  it('records a url naming an account the Worker does not serve without the account', async () => {
    const response = await through(fixture, { account: 'client-gone' }).call('quote_plan', {
      plan: 'growth',
      seats: 1,
    });
    expect(response.status).toBe(401);
    expect(onlyRecord()).toMatchObject({ account: null, function: 'quote_plan', status: 401 });
    expect(JSON.stringify(records)).not.toContain('client-gone');
  });

  it('records a 405 of a served function with the function', async () => {
    const response = await call('quote_plan', {}, { method: 'PUT', body: null });
    expect(response.status).toBe(405);
    expect(onlyRecord()).toMatchObject({ function: 'quote_plan', outcome: 'refused', code: 'method_not_allowed' });
  });

  it('records a call over its rate limit (429) with the account and function it was refused in', async () => {
    const worker = createWorker({
      functions: {
        paid_lookup: defineFunction({
          description: 'Pretends to call a paid API, for the record tests: rate-limited.',
          parameters: z.object({}),
          rateLimit: { key: 'function' },
          handler: () => ({ ok: true }),
        }),
      },
      rateLimits,
    });
    // The binding's answer once the budget is spent (the rate-limit tests spend a real one).
    const spent = { limit: async () => ({ success: false }) };
    const response = await withEnv(worker, { ...(env as Env), FUNCTION_RATE_LIMIT: spent } as Env).call(
      'paid_lookup',
      {},
    );
    expect(response.status).toBe(429);
    expect(onlyRecord()).toMatchObject({
      account: 'default',
      function: 'paid_lookup',
      outcome: 'refused',
      status: 429,
      code: 'rate_limited',
    });
  });

  it('says error with the code of a handler that threw', async () => {
    const worker = createWorker({
      functions: {
        always_fails: defineFunction({
          description: 'Fails every time, for the tests: its handler throws.',
          parameters: z.object({}),
          handler: () => {
            throw new Error('down');
          },
        }),
      },
    });
    const response = await withEnv(worker, env as Env).call('always_fails', {});
    expect(response.status).toBe(500);
    expect(onlyRecord()).toMatchObject({
      account: 'default',
      function: 'always_fails',
      outcome: 'error',
      status: 500,
      code: 'function_failed',
    });
  });
});

describe('the record of an MCP call', () => {
  let client: Client | undefined;
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });

  it('names the account the call acted in, with transport mcp', async () => {
    client = await connect(await staticToken(), meteredFetch);
    records.length = 0;
    lines.length = 0;
    const result = await client.callTool({ name: 'quote_plan', arguments: { plan: 'growth', seats: 3 } });
    expect(result.isError).toBeFalsy();
    expect(onlyRecord()).toEqual({
      account: 'default',
      function: 'quote_plan',
      transport: 'mcp',
      kind: 'call',
      outcome: 'ok',
      status: 200,
      durationMs: expect.any(Number),
      version: quoteVersion(),
      requestId: expect.any(String),
    });
  });

  it('records an unknown tool without its name', async () => {
    client = await connect(await staticToken());
    records.length = 0;
    lines.length = 0;
    await expect(client.callTool({ name: 'made_up_tool', arguments: {} })).rejects.toThrow();
    expect(onlyRecord()).toMatchObject({ account: null, function: null, transport: 'mcp', status: 404 });
    expect(JSON.stringify(records)).not.toContain('made_up_tool');
  });
});

describe('the description version', () => {
  it('changes with what sync registers, and not with the order of the parameter map', () => {
    const registeredFn = {
      name: 'quote_plan',
      description: 'Quotes a plan.',
      parameters: { plan: 'string', seats: 'number' },
    };
    const version = descriptionVersion(registeredFn);
    expect(version).toMatch(/^[0-9a-f]{8}$/);
    expect(descriptionVersion({ ...registeredFn, parameters: { seats: 'number', plan: 'string' } })).toBe(version);
    expect(descriptionVersion({ ...registeredFn, description: 'Quotes a plan, in euros.' })).not.toBe(version);
    expect(descriptionVersion({ ...registeredFn, parameters: { plan: 'string', seats: 'string' } })).not.toBe(version);
    expect(descriptionVersion({ ...registeredFn, name: 'quote_plans' })).not.toBe(version);
  });
});

/** A tracing whose span (`isTraced` or not) records what is attached to it, as the runtime's would. */
const spanRecorder = (isTraced: boolean) => {
  const attached: Array<Record<string, string | undefined>> = [];
  const span = {
    isTraced,
    setAttributes: (attributes: Record<string, string | undefined>) => attached.push(attributes),
  };
  return { attached, tracing: { getActiveSpan: () => span } };
};

/** A caller of `worker`, its waitUntil awaited after each call, without the metrics bindings (the span is the option's, whatever becomes of the figures). */
const callerOf = (worker: ReturnType<typeof createWorker>) =>
  through({
    fetch: async (request) => {
      const ctx = createExecutionContext();
      const response = await worker.fetch(request, envWithoutFigures(), ctx);
      await waitOnExecutionContext(ctx);
      return response;
    },
  });

describe("the call's trace (Workers traces)", () => {
  let testSink: ReturnType<typeof setRecordSink>;
  beforeAll(() => {
    testSink = setRecordSink(undefined);
  });
  afterAll(() => setRecordSink(testSink));
  /** A Worker with the metrics option, its span `isTraced` or not; made while no sink is set, so the option's own sink serves its calls. */
  const traced = (isTraced: boolean) => {
    const { attached, tracing } = spanRecorder(isTraced);
    setRecordSink(undefined);
    const caller = callerOf(createWorker({ functions: FIXTURE_FUNCTIONS, metrics: callMetrics({ tracing }) }));
    return { attached, caller };
  };

  it("gets the record's account, function, outcome, code and version on the call's span, and never an argument", async () => {
    const { attached, caller } = traced(true);
    await caller.call('quote_plan', { plan: 'growth', seats: 'nine-thousand-and-one' });
    expect(attached).toEqual([
      {
        'agent_functions.account': 'default',
        'agent_functions.function': 'quote_plan',
        'agent_functions.transport': 'http',
        'agent_functions.kind': 'call',
        'agent_functions.outcome': 'refused',
        'agent_functions.code': 'invalid_arguments',
        'agent_functions.version': quoteVersion(),
      },
    ]);
    expect(JSON.stringify(attached)).not.toContain('nine-thousand');
  });

  it('attaches nothing to a request the runtime does not trace', async () => {
    const { attached, caller } = traced(false);
    expect((await caller.call('quote_plan', { plan: 'growth', seats: 2 })).status).toBe(200);
    expect(attached).toEqual([]);
  });

  it("finds the span through the runtime's own tracing by default", async () => {
    setRecordSink(undefined);
    const caller = callerOf(createWorker({ functions: FIXTURE_FUNCTIONS, metrics: callMetrics() }));
    // The local runtime traces nothing: the call goes through the runtime's tracing, untouched.
    expect(RUNTIME_TRACING?.getActiveSpan).toBeTypeOf('function');
    expect((await caller.call('quote_plan', { plan: 'growth', seats: 2 })).status).toBe(200);
  });
});
