// Two Workers created in one isolate (as tests create them, or a project with two entry points)
// each serve their own functions over OAuth at the same origin: the OAuth provider one keeps per
// origin must not answer with the other's.
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createWorker } from '../../createWorker.ts';
import { defineFunction } from '../../define.ts';
import { mcpOnDemand } from '../../mcp/onDemand.ts';
import { testEnv } from '../security/harness.ts';
import { loadMcp, MCP_IMPORT_TIMEOUT_MS } from './helpers.ts';
import { authorize, sender } from './oauthFlow.ts';

const workerServing = (name: string) => {
  const worker = createWorker({
    mcp: mcpOnDemand(() => import('../../mcp/index.ts')),
    functions: {
      [name]: defineFunction({
        description: 'Answers its own name. Used by the two-Worker MCP test only.',
        parameters: z.object({}),
        effect: 'read',
        handler: () => name,
      }),
    },
  });
  return async (request: Request) => {
    const ctx = createExecutionContext();
    const response = await worker.fetch(request, testEnv, ctx);
    await waitOnExecutionContext(ctx);
    return response;
  };
};

/** The tool names `fetch` lists to a client it approved over OAuth. */
const toolsListed = async (fetch: (request: Request) => Promise<Response>) => {
  const send = sender(fetch);
  const { accessToken } = await authorize(send);
  const response = await send('/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/list',
      authorization: `Bearer ${accessToken}`,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'two-workers', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
  const { result } = (await response.json()) as { result?: { tools: { name: string }[] } };
  return result?.tools.map((tool) => tool.name);
};

beforeAll(loadMcp, MCP_IMPORT_TIMEOUT_MS);

describe('two Workers in one isolate, one origin', () => {
  it('each serves its own functions over OAuth', async () => {
    expect(await toolsListed(workerServing('first_tool'))).toEqual(['first_tool']);
    expect(await toolsListed(workerServing('second_tool'))).toEqual(['second_tool']);
  });
});
