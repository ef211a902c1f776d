// Under MCP there is no conversation to tell the outcome: a call that needs approval is refused
// clearly, asks nobody and runs nothing, even for a client that takes tasks (docs/mcp.md).
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { withApproval } from '../../approval/feature.ts';
import { conversationFeatures } from '../../conversations/features.ts';
import { createWorker } from '../../createWorker.ts';
import { defineFunction } from '../../define.ts';
import type { Env } from '../../env.ts';
import { TASKS_EXTENSION } from '../../mcp/tasks.ts';
import { ORIGIN } from '../../testing/call.ts';
import { mockOutbound } from '../../testing/outbound.ts';
import { env } from '../helpers.ts';
import { loadMcp, MCP_IMPORT_TIMEOUT_MS, staticToken } from '../mcp/helpers.ts';

const runs: number[] = [];
const worker = createWorker({
  conversations: withApproval(conversationFeatures, { teamContact: () => ({ contactId: 'ct_team', channel: 'sms' }) }),
  mcp: () => import('../../mcp/index.ts'),
  functions: {
    grant_discount: defineFunction({
      description: 'Grants a discount, for the tests: a person approves above 20 percent.',
      parameters: z.object({ percent: z.number().int().min(1).max(90) }),
      handler: ({ percent }) => {
        runs.push(percent);
        return { granted: percent };
      },
      approval: {
        when: ({ percent }) => percent > 20,
        ask: ({ percent }) => `Grant a ${percent}% discount?`,
        message: (result) => `Your ${result.granted}% discount is on your account.`,
        denied: 'A colleague could not approve that discount.',
        expired: 'Nobody could approve the discount in time.',
      },
    }),
  },
});

beforeAll(loadMcp, MCP_IMPORT_TIMEOUT_MS);

const toolsCall = async (percent: number) => {
  const request = new Request(`${ORIGIN}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'grant_discount',
      authorization: `Bearer ${await staticToken()}`,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'grant_discount',
        arguments: { percent },
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'approval-test', version: '1.0.0' },
          'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS_EXTENSION]: {} } },
        },
      },
    }),
  });
  const ctx = createExecutionContext();
  const response = await worker.fetch(request, { ...(env as Env), MCP_STATIC_TOKEN: 'on' }, ctx);
  await waitOnExecutionContext(ctx);
  const body = await response.json();
  return body as { result?: { isError?: boolean; content?: Array<{ text: string }> } };
};

describe('approval under MCP', () => {
  it('refuses a call that needs approval, asks nobody and runs nothing; a call below the threshold runs', async () => {
    const outbound = mockOutbound();
    try {
      const refused = await toolsCall(30);
      expect(refused.result?.isError).toBe(true);
      expect(JSON.stringify(refused.result?.content)).toContain("This needs a person's approval");
      expect(runs).toEqual([]);
      expect(outbound.requests).toEqual([]);
      const granted = await toolsCall(10);
      expect(granted.result?.isError).toBeFalsy();
      expect(runs).toEqual([10]);
    } finally {
      outbound.restore();
    }
  });
});
