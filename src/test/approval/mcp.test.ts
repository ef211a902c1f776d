// Under MCP there is no conversation to tell the outcome: for a client that takes tasks, a call that
// needs approval becomes a task that completes after the decision; any other client gets a clear
// refusal, and nobody is asked and nothing runs (docs/mcp.md).
import { createExecutionContext, introspectWorkflow, waitOnExecutionContext } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { withApproval } from '../../approval/feature.ts';
import { decideByReply } from '../../approval/reply.ts';
import { conversationFeatures } from '../../conversations/features.ts';
import { createWorker } from '../../createWorker.ts';
import { defineFunction } from '../../define.ts';
import type { Env } from '../../env.ts';
import { mcpOnDemand } from '../../mcp/onDemand.ts';
import { TASKS_EXTENSION } from '../../mcp/tasks.ts';
import { createPlatformClient } from '../../platform/client/client.ts';
import { ORIGIN } from '../../testing/call.ts';
import { mockOutbound } from '../../testing/outbound.ts';
import { env } from '../helpers.ts';
import { loadMcp, MCP_IMPORT_TIMEOUT_MS, staticToken } from '../mcp/helpers.ts';

const PLATFORM = 'https://platform.approval-mcp.test';
const runs: number[] = [];
const worker = createWorker({
  conversations: withApproval(conversationFeatures, { teamContact: () => ({ contactId: 'ct_team', channel: 'sms' }) }),
  platform: (_env, signal) => createPlatformClient({ baseUrl: PLATFORM, apiKey: 'k', signal }),
  mcp: mcpOnDemand(() => import('../../mcp/index.ts')),
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

/** One JSON-RPC request of the 2026-07-28 revision, declaring the tasks extension unless `tasks` is false. */
const rpc = async (method: string, params: Record<string, unknown>, tasks: boolean) => {
  const request = new Request(`${ORIGIN}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      'mcp-name': String(params.name ?? params.taskId),
      authorization: `Bearer ${await staticToken()}`,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'approval-test', version: '1.0.0' },
          'io.modelcontextprotocol/clientCapabilities': tasks ? { extensions: { [TASKS_EXTENSION]: {} } } : {},
        },
      },
    }),
  });
  const ctx = createExecutionContext();
  const response = await worker.fetch(request, { ...(env as Env), MCP_STATIC_TOKEN: 'on' }, ctx);
  await waitOnExecutionContext(ctx);
  return (await response.json()) as {
    result?: {
      isError?: boolean;
      content?: Array<{ text: string }>;
      resultType?: string;
      taskId?: string;
      status?: string;
      result?: { structuredContent?: unknown; isError?: boolean };
    };
  };
};
const toolsCall = (percent: number, tasks = false) =>
  rpc('tools/call', { name: 'grant_discount', arguments: { percent } }, tasks);

describe('approval under MCP', () => {
  it('for a client that takes tasks, a call that needs approval is a task that completes after the decision', async () => {
    const asks: string[] = [];
    const outbound = mockOutbound().on('POST', `${PLATFORM}/v1/messages`, async (request) => {
      asks.push(((await request.clone().json()) as { text: string }).text);
      return Response.json({ id: 'msg_1' }, { status: 201 });
    });
    const workflows = await introspectWorkflow((env as Env & { APPROVALS: Workflow }).APPROVALS);
    try {
      const created = await toolsCall(40, true);
      expect(created.result).toMatchObject({ resultType: 'task', status: 'working' });
      const taskId = created.result?.taskId as string;
      expect(runs).toEqual([]);
      expect(asks).toEqual([expect.stringContaining('Grant a 40% discount?')]);
      expect((await rpc('tasks/get', { taskId }, true)).result?.status).toBe('working');
      const code = /\(([A-Z0-9]{4})\)/.exec(asks[0] ?? '')?.[1] ?? '';
      expect(await decideByReply(env as Env, 'default', { contactId: 'ct_team', text: `approve ${code}` })).toBe(
        'approved',
      );
      for (const instance of await workflows.get()) await instance.waitForStatus('complete');
      const done = await rpc('tasks/get', { taskId }, true);
      expect(done.result).toMatchObject({ status: 'completed', result: { structuredContent: { granted: 40 } } });
      expect(runs).toEqual([40]);
      // Nobody but the client is told: the only message is the ask.
      expect(asks).toHaveLength(1);
    } finally {
      await workflows.dispose();
      outbound.restore();
      runs.length = 0;
    }
  });

  it('a denied task completes with isError and nothing runs', async () => {
    const asks: string[] = [];
    const outbound = mockOutbound().on('POST', `${PLATFORM}/v1/messages`, async (request) => {
      asks.push(((await request.clone().json()) as { text: string }).text);
      return Response.json({ id: 'msg_2' }, { status: 201 });
    });
    const workflows = await introspectWorkflow((env as Env & { APPROVALS: Workflow }).APPROVALS);
    try {
      const taskId = (await toolsCall(50, true)).result?.taskId as string;
      const code = /\(([A-Z0-9]{4})\)/.exec(asks[0] ?? '')?.[1] ?? '';
      expect(await decideByReply(env as Env, 'default', { contactId: 'ct_team', text: `deny ${code}` })).toBe('denied');
      for (const instance of await workflows.get()) await instance.waitForStatus('complete');
      const done = await rpc('tasks/get', { taskId }, true);
      expect(done.result).toMatchObject({ status: 'completed', result: { isError: true } });
      expect(JSON.stringify(done.result)).toContain('did not approve');
      expect(runs).toEqual([]);
    } finally {
      await workflows.dispose();
      outbound.restore();
    }
  });

  it('for any other client, a call that needs approval is refused, asks nobody and runs nothing; below the threshold it runs', async () => {
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
