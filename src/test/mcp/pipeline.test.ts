// tools/call runs the pipeline of an HTTP call: the time limit, the rate limit, a handler's own
// refusal and an unexpected throw come back as isError results with the message the model reads.
// Also who may reach /mcp: Origin and Host (DNS rebinding), development, an unset secret.

import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createWorker } from '../../createWorker.ts';
import { type AnyFunctionDefinition, defineFunction } from '../../define.ts';
import type { Env } from '../../env.ts';
import { FunctionError } from '../../errors.ts';
import { mcpOnDemand } from '../../mcp/onDemand.ts';
import { rateLimits } from '../../ratelimit.ts';
import { ORIGIN, testEnv } from '../security/harness.ts';
import { loadMcp, MCP_IMPORT_TIMEOUT_MS, staticToken } from './helpers.ts';

const query = z.object({ query: z.string().describe('What to look up') });

const FUNCTIONS: Record<string, AnyFunctionDefinition> = {
  slow_lookup: defineFunction({
    description: 'Never answers in time. Used by the MCP pipeline tests only.',
    parameters: query,
    timeoutMs: 50,
    handler: (_, { signal }) =>
      new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
  }),
  paid_lookup: defineFunction({
    description: 'Pretends to call a paid API. Used by the MCP pipeline tests only.',
    parameters: query,
    rateLimit: { key: 'function' },
    handler: ({ query: q }) => ({ q }),
  }),
  missing_order: defineFunction({
    description: 'Finds no order. Used by the MCP pipeline tests only.',
    parameters: query,
    handler: () => {
      throw new FunctionError(404, 'order_not_found', 'No order matches. Ask the customer to check the number.');
    },
  }),
  who_calls: defineFunction({
    description: 'Says which conversation it sees. Used by the MCP pipeline tests only.',
    parameters: query,
    effect: 'read',
    handler: ({ query: q }, { conversation }) => ({ q, conversation: conversation ?? null }),
  }),
  slow_later: defineFunction({
    description: 'Takes longer than its answerWithinMs. Used by the MCP pipeline tests only.',
    parameters: query,
    effect: 'read',
    handler: async ({ query: q }) => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      return { summary: `found ${q}` };
    },
    later: { answerWithinMs: 100, interim: 'Still looking; a message follows.', message: (r) => r.summary },
  }),
  broken_lookup: defineFunction({
    description: 'Throws unexpectedly. Used by the MCP pipeline tests only.',
    parameters: query,
    handler: () => {
      throw new Error('database password is hunter2');
    },
  }),
};

const workerOf = (overrides: Partial<Env> = {}) => {
  const { fetch } = createWorker({
    functions: FUNCTIONS,
    rateLimits,
    mcp: mcpOnDemand(() => import('../../mcp/index.ts')),
  });
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const ctx = createExecutionContext();
    const response = await fetch(new Request(input, init), { ...testEnv, ...overrides }, ctx);
    await waitOnExecutionContext(ctx);
    return response;
  };
};

beforeAll(loadMcp, MCP_IMPORT_TIMEOUT_MS);

let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

const connect = async (
  fetch: ReturnType<typeof workerOf>,
  url = `${ORIGIN}/mcp`,
  headers: Record<string, string> = {},
) => {
  client = new Client({ name: 'pipeline-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch, requestInit: { headers } }));
  return client;
};

const textOf = (result: Awaited<ReturnType<Client['callTool']>>) =>
  (result.content as { type: string; text: string }[]).map((part) => part.text).join('');

const initialize = (headers: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
  body: JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
  }),
});

describe('tools/call through the shared pipeline', () => {
  it('stops a handler at its time limit and says so', async () => {
    const mcp = await connect(workerOf(), `${ORIGIN}/mcp`, { authorization: `Bearer ${await staticToken()}` });
    const result = await mcp.callTool({ name: 'slow_lookup', arguments: { query: 'x' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/took longer than 0.05 seconds/);
  });

  it('counts calls against the rate limit and refuses once over it', async () => {
    const mcp = await connect(workerOf(), `${ORIGIN}/mcp`, { authorization: `Bearer ${await staticToken()}` });
    let refused: Awaited<ReturnType<Client['callTool']>> | undefined;
    for (let i = 0; i < 121 && !refused; i++) {
      const result = await mcp.callTool({ name: 'paid_lookup', arguments: { query: 'x' } });
      if (result.isError) refused = result;
    }
    expect(refused && textOf(refused)).toMatch(/Too many requests to this function/);
  });

  it("returns a handler's own refusal as its message", async () => {
    const mcp = await connect(workerOf(), `${ORIGIN}/mcp`, { authorization: `Bearer ${await staticToken()}` });
    const result = await mcp.callTool({ name: 'missing_order', arguments: { query: 'x' } });
    expect(result).toMatchObject({ isError: true });
    expect(textOf(result)).toBe('No order matches. Ask the customer to check the number.');
  });

  it('has no conversation, whatever ids the arguments carry: an MCP client could claim any', async () => {
    const mcp = await connect(workerOf(), `${ORIGIN}/mcp`, { authorization: `Bearer ${await staticToken()}` });
    const result = await mcp.callTool({
      name: 'who_calls',
      arguments: { query: 'x', contactId: 'ct_someone_else', conversationId: 'cv_1', channel: 'whatsapp' },
    });
    expect(result.structuredContent).toEqual({ q: 'x', conversation: null });
  });

  it('answers a deferred function with its result, as a plain call: there is nobody to message later', async () => {
    const mcp = await connect(workerOf(), `${ORIGIN}/mcp`, { authorization: `Bearer ${await staticToken()}` });
    const result = await mcp.callTool({ name: 'slow_later', arguments: { query: 'x' } });
    expect(result.structuredContent).toEqual({ summary: 'found x' });
  });

  it('hides what an unexpected throw said', async () => {
    const mcp = await connect(workerOf(), `${ORIGIN}/mcp`, { authorization: `Bearer ${await staticToken()}` });
    const result = await mcp.callTool({ name: 'broken_lookup', arguments: { query: 'x' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/failed unexpectedly/);
    expect(textOf(result)).not.toMatch(/hunter2/);
  });
});

describe('who may reach /mcp', () => {
  it('refuses a browser Origin that is not the Worker and not listed', async () => {
    const fetch = workerOf();
    const token = await staticToken();
    const evil = await fetch(
      `${ORIGIN}/mcp`,
      initialize({ authorization: `Bearer ${token}`, origin: 'https://evil.example' }),
    );
    expect(evil.status).toBe(403);
    const own = await fetch(`${ORIGIN}/mcp`, initialize({ authorization: `Bearer ${token}`, origin: ORIGIN }));
    expect(own.status).toBe(200);
    const listed = workerOf({ MCP_ALLOWED_ORIGINS: 'https://app.example, https://inspector.example' });
    const allowed = await listed(
      `${ORIGIN}/mcp`,
      initialize({ authorization: `Bearer ${token}`, origin: 'https://inspector.example' }),
    );
    expect(allowed.status).toBe(200);
  });

  it('is open under development, on this machine only', async () => {
    const dev = workerOf({ AGENT_FUNCTIONS_MODE: 'development' });
    const mcp = await connect(dev, 'http://127.0.0.1:8787/mcp');
    expect((await mcp.listTools()).tools.map((tool) => tool.name)).toContain('paid_lookup');
    expect((await dev('http://evil.example/mcp', initialize({}))).status).toBe(403);
    expect((await dev('http://127.0.0.1:8787/mcp', initialize({ origin: 'http://evil.example' }))).status).toBe(403);
  });

  it('answers 503 in production while FUNCTIONS_SECRET is unset', async () => {
    const unset = workerOf({ FUNCTIONS_SECRET: undefined });
    const response = await unset(`${ORIGIN}/mcp`, initialize({}));
    expect(response.status).toBe(503);
  });

  it('without OAUTH_KV, accepts only the static token', async () => {
    const noOauth = workerOf({ OAUTH_KV: undefined });
    const refused = await noOauth(`${ORIGIN}/mcp`, initialize({}));
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer');
    expect((await noOauth(`${ORIGIN}/.well-known/oauth-authorization-server`)).status).toBe(404);
    const accepted = await noOauth(`${ORIGIN}/mcp`, initialize({ authorization: `Bearer ${await staticToken()}` }));
    expect(accepted.status).toBe(200);
  });

  it('is not served at all by a Worker created without the mcp option', async () => {
    const { fetch } = createWorker({ functions: FUNCTIONS, rateLimits });
    const ctx = createExecutionContext();
    const response = await fetch(new Request(`${ORIGIN}/mcp`, initialize({})), testEnv, ctx);
    expect(response.status).toBe(404);
  });
});
