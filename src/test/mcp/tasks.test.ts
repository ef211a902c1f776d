// A `later` function under MCP, for a client that declares the tasks extension (2026-07-28): past
// answerWithinMs the call answers a task, the DeferredCall workflow does the work, and the client
// reads the outcome with tasks/get or stops it with tasks/cancel. Raw JSON-RPC on the wire, as the
// specification writes it, against the Worker's fetch in workerd with the real workflow binding.
import { createExecutionContext, introspectWorkflow, waitOnExecutionContext } from 'cloudflare:test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { conversationFeatures } from '../../conversations/features.ts';
import { newTaskId, taskInstanceId } from '../../conversations/task.ts';
import { createWorker } from '../../createWorker.ts';
import { defineFunction } from '../../define.ts';
import type { Env } from '../../env.ts';
import { FunctionError } from '../../errors.ts';
import { mcpOnDemand } from '../../mcp/onDemand.ts';
import { TASK_TTL_MS, TASKS_EXTENSION } from '../../mcp/tasks.ts';
import { ExpectedFault } from '../expectedFault.ts';
import { ORIGIN, testEnv } from '../security/harness.ts';
import { loadMcp, MCP_IMPORT_TIMEOUT_MS, staticToken } from './helpers.ts';
import { authorize, sender } from './oauthFlow.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits `ms`, or rejects when `signal` fires (the call's run is stopped when its work is deferred). */
const work = (ms: number, signal: AbortSignal) => scheduler.wait(ms, { signal });

const later = {
  answerWithinMs: 150,
  interim: 'Checking with the warehouse; a message follows in a minute.',
  message: (result: unknown) => JSON.stringify(result),
  retries: 0,
};

/** Deferred attempts of stock_flaky, by SKU. */
const flakyAttempts = new Map<string, number>();

const worker = createWorker({
  conversations: conversationFeatures,
  mcp: mcpOnDemand(() => import('../../mcp/index.ts')),
  functions: {
    // Takes `ms` in the call; as deferred work, `deferredMs`.
    stock_check: defineFunction({
      description: 'Checks stock with a slow warehouse. Used by the MCP task tests only.',
      parameters: z.object({ sku: z.string(), ms: z.number().int(), deferredMs: z.number().int() }),
      effect: 'read',
      timeoutMs: 40_000,
      handler: async ({ sku, ms, deferredMs }, { signal, deferred }) => {
        await work(deferred ? deferredMs : ms, signal);
        return { sku, inStock: 3 };
      },
      later,
    }),
    // Too slow in the call (a task), at once as deferred work.
    stock_refused: defineFunction({
      description: 'Refuses after a while. Used by the MCP task tests only.',
      parameters: z.object({ sku: z.string() }),
      effect: 'read',
      handler: async (_args, { signal, deferred }) => {
        await work(deferred ? 0 : 1_000, signal);
        throw new FunctionError(404, 'no_such_item', 'No item has that SKU. Ask the customer to check it.');
      },
      later,
    }),
    // Crashes on its first deferred attempt, then answers: the workflow's retry finishes the task.
    stock_flaky: defineFunction({
      description: 'Crashes once as deferred work, then answers. Used by the MCP task tests only.',
      parameters: z.object({ sku: z.string() }),
      effect: 'read',
      handler: async ({ sku }, { signal, deferred }) => {
        await work(deferred ? 0 : 1_000, signal);
        const attempt = (flakyAttempts.get(sku) ?? 0) + 1;
        flakyAttempts.set(sku, attempt);
        if (attempt === 1) throw new ExpectedFault('warehouse connection reset');
        return { sku, inStock: 1, attempt };
      },
      later: { ...later, retries: 2 },
    }),
    // Its instance is created 400 ms before its 1 s deadline; its work ends 300 ms after that, 100 ms before it.
    stock_edge: defineFunction({
      description: 'Finishes just before its deadline. Used by the MCP task tests only.',
      parameters: z.object({ sku: z.string() }),
      effect: 'read',
      handler: async ({ sku }, { signal }) => {
        await work(900, signal);
        return { sku, inStock: 2 };
      },
      later: { ...later, answerWithinMs: 1_000 },
    }),
    // Too slow in the call (a task), at once as deferred work.
    stock_broken: defineFunction({
      description: 'Fails unexpectedly after a while. Used by the MCP task tests only.',
      parameters: z.object({ sku: z.string() }),
      effect: 'read',
      handler: async (_args, { signal, deferred }) => {
        await work(deferred ? 0 : 1_000, signal);
        throw new ExpectedFault('warehouse password is hunter2');
      },
      later,
    }),
  },
});

type Reply = { result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };

let nextId = 1;
/** One JSON-RPC request of the 2026-07-28 revision, declaring the tasks extension unless `tasks` is false. */
const rpc = async (
  method: string,
  params: Record<string, unknown>,
  { tasks = true, env = {} as Partial<Env>, url = `${ORIGIN}/mcp`, token = undefined as string | undefined } = {},
): Promise<Reply> => {
  const name = (params.name ?? params.taskId) as string | undefined;
  const request = new Request(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name === undefined ? {} : { 'mcp-name': name }),
      authorization: `Bearer ${token ?? (await staticToken())}`,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: nextId++,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'task-test', version: '1.0.0' },
          'io.modelcontextprotocol/clientCapabilities': tasks ? { extensions: { [TASKS_EXTENSION]: {} } } : {},
        },
      },
    }),
  });
  return (await fetchWorker(request, env).then((response) => response.json())) as Reply;
};

/** The Worker's answer to `request`, its waitUntil work done. */
const fetchWorker = async (request: Request, env: Partial<Env> = {}) => {
  const ctx = createExecutionContext();
  const response = await worker.fetch(request, { ...testEnv, MCP_STATIC_TOKEN: 'on', ...env }, ctx);
  await waitOnExecutionContext(ctx);
  return response;
};

const call = (name: string, args: Record<string, unknown>, options?: Parameters<typeof rpc>[2]) =>
  rpc('tools/call', { name, arguments: args }, options);

const TERMINAL = ['completed', 'failed', 'cancelled'];

/** Polls tasks/get as a client does, until the task ends (or 20 s pass). */
const settled = async (taskId: string) => {
  const until = Date.now() + 20_000;
  for (;;) {
    const { result } = await rpc('tasks/get', { taskId });
    if (TERMINAL.includes(String(result?.status)) || Date.now() > until) return result;
    await sleep(100);
  }
};

let workflows: Awaited<ReturnType<typeof introspectWorkflow>>;
beforeAll(async () => {
  await loadMcp();
  workflows = await introspectWorkflow((testEnv as { DEFERRED_CALLS?: Workflow }).DEFERRED_CALLS as Workflow);
  await workflows.modifyAll(async (m) => {
    await m.disableRetryDelays();
  });
}, MCP_IMPORT_TIMEOUT_MS);
afterAll(() => workflows.dispose());

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/;

describe('a later function as an MCP task', () => {
  it('advertises the tasks extension', async () => {
    const { result } = await rpc('server/discover', {});
    expect((result?.capabilities as { extensions?: object } | undefined)?.extensions).toEqual({
      [TASKS_EXTENSION]: {},
    });
  });

  it('answers a task past answerWithinMs, then inlines the result in tasks/get once the work is done', async () => {
    const started = Date.now();
    const { result: created } = await call('stock_check', { sku: 'A-1', ms: 5_000, deferredMs: 500 });
    // 150 ms on an idle machine; far below the 5 s the work would take in the call.
    expect(Date.now() - started).toBeLessThan(2_500);
    expect(created).toMatchObject({
      resultType: 'task',
      status: 'working',
      ttlMs: 86_400_000,
      pollIntervalMs: 1_000,
    });
    expect(created).not.toHaveProperty('result');
    expect(created).not.toHaveProperty('task');
    expect(created?.createdAt).toMatch(ISO);
    expect(created?.lastUpdatedAt).toMatch(ISO);
    const taskId = String(created?.taskId);
    // Readable at once: the instance exists before the answer goes out.
    const { result: first } = await rpc('tasks/get', { taskId });
    expect(first).toMatchObject({ resultType: 'complete', taskId, createdAt: created?.createdAt });
    expect(['working', 'completed']).toContain(first?.status);
    const done = await settled(taskId);
    expect(done).toMatchObject({
      resultType: 'complete',
      taskId,
      status: 'completed',
      result: { structuredContent: { sku: 'A-1', inStock: 3 } },
    });
    expect(done).not.toHaveProperty('error');
    expect(Date.parse(String(done?.lastUpdatedAt))).toBeGreaterThanOrEqual(Date.parse(String(done?.createdAt)));
  });

  it('answers the result itself when the work finishes within answerWithinMs', async () => {
    const { result } = await call('stock_check', { sku: 'B-2', ms: 0, deferredMs: 0 });
    expect(result).toMatchObject({ resultType: 'complete', structuredContent: { sku: 'B-2', inStock: 3 } });
    expect(result).not.toHaveProperty('taskId');
  });

  it('answers the result itself when the work ends after the instance was created, and stops the instance', async () => {
    const before = (await workflows.get()).length;
    const { result } = await call('stock_edge', { sku: 'E-1' });
    expect(result).toMatchObject({ resultType: 'complete', structuredContent: { sku: 'E-1', inStock: 2 } });
    expect(result).not.toHaveProperty('taskId');
    const created = (await workflows.get()).slice(before);
    expect(created).toHaveLength(1);
    await created[0]?.waitForStatus('terminated');
  });

  it('runs as a plain call for a client without the extension, and refuses it the task methods', async () => {
    const { result } = await call('stock_check', { sku: 'C-3', ms: 400, deferredMs: 0 }, { tasks: false });
    expect(result).toMatchObject({ resultType: 'complete', structuredContent: { sku: 'C-3', inStock: 3 } });
    expect(result).not.toHaveProperty('taskId');
    const { error } = await rpc('tasks/get', { taskId: 'any' }, { tasks: false });
    expect(error?.code).toBe(-32021);
    expect(error?.data).toEqual({ requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } });
  });

  it('completes a refused task with isError and the message the model reads', async () => {
    const { result: created } = await call('stock_refused', { sku: 'D-4' });
    expect(created?.resultType).toBe('task');
    const done = await settled(String(created?.taskId));
    expect(done).toMatchObject({
      status: 'completed',
      result: {
        isError: true,
        content: [{ type: 'text', text: 'No item has that SKU. Ask the customer to check it.' }],
      },
    });
  });

  it('retries work that crashed and completes the task with the retry’s result', async () => {
    const { result: created } = await call('stock_flaky', { sku: 'R-9' });
    expect(created?.resultType).toBe('task');
    const done = await settled(String(created?.taskId));
    expect(done).toMatchObject({ status: 'completed', result: { structuredContent: { sku: 'R-9', attempt: 2 } } });
    expect(flakyAttempts.get('R-9')).toBe(2);
  });

  it('fails a task whose work failed unexpectedly, with an error and no result, saying nothing of the cause', async () => {
    const { result: created } = await call('stock_broken', { sku: 'E-5' });
    const done = await settled(String(created?.taskId));
    expect(done).toMatchObject({ status: 'failed', error: { code: -32603, message: expect.any(String) } });
    expect(done).not.toHaveProperty('result');
    expect(JSON.stringify(done)).not.toMatch(/hunter2/);
  });

  it('cancels a working task with an empty ack, idempotently', async () => {
    const { result: created } = await call('stock_check', { sku: 'F-6', ms: 5_000, deferredMs: 30_000 });
    const taskId = String(created?.taskId);
    const { result: ack } = await rpc('tasks/cancel', { taskId });
    expect(ack).toEqual({ resultType: 'complete', _meta: expect.any(Object) });
    expect((await settled(taskId))?.status).toBe('cancelled');
    const { result: again } = await rpc('tasks/cancel', { taskId });
    expect(again).toEqual(ack);
  });

  it('knows no task it did not make for this client: -32602 for an unknown id, or another client’s', async () => {
    expect((await rpc('tasks/get', { taskId: 'tasks-conformance-nonexistent-12345' })).error?.code).toBe(-32602);
    expect(
      (await rpc('tasks/cancel', { taskId: `${Date.now().toString(36)}-${crypto.randomUUID()}` })).error?.code,
    ).toBe(-32602);
    const { result: created } = await call('stock_check', { sku: 'G-7', ms: 5_000, deferredMs: 0 });
    const taskId = String(created?.taskId);
    expect((await rpc('tasks/get', { taskId })).result?.taskId).toBe(taskId);
    // The same Worker under local development serves another owner ('local'): not its task.
    const local = { env: { AGENT_FUNCTIONS_MODE: 'development' }, url: 'http://localhost:8787/mcp' } as const;
    expect((await rpc('tasks/get', { taskId }, local)).error?.code).toBe(-32602);
    await settled(taskId);
  });

  it('keeps one OAuth client’s tasks from another', async () => {
    const send = sender((request) => fetchWorker(request));
    const first = await authorize(send);
    const second = await authorize(send);
    const { result: created } = await call(
      'stock_check',
      { sku: 'H-8', ms: 5_000, deferredMs: 0 },
      { token: first.accessToken },
    );
    const taskId = String(created?.taskId);
    expect((await rpc('tasks/get', { taskId }, { token: first.accessToken })).result?.taskId).toBe(taskId);
    expect((await rpc('tasks/get', { taskId }, { token: second.accessToken })).error?.code).toBe(-32602);
    expect((await rpc('tasks/cancel', { taskId }, { token: second.accessToken })).error?.code).toBe(-32602);
    expect((await rpc('tasks/get', { taskId }, { token: await staticToken() })).error?.code).toBe(-32602);
  });

  it('forgets a task once its ttlMs has passed, finished or not: -32602 as for an unknown id', async () => {
    const workflow = (testEnv as { DEFERRED_CALLS?: Workflow }).DEFERRED_CALLS as Workflow;
    const createdAt = Date.now() - TASK_TTL_MS - 2 * 86_400_000;
    const taskId = newTaskId(createdAt);
    // The instance of a task made three days ago whose work is done: still kept by Workflows.
    const instance = await workflow.create({
      id: await taskInstanceId('static-token', taskId),
      params: { name: 'stock_check', args: { sku: 'T-1', ms: 0, deferredMs: 0 }, task: { createdAt }, requestId: 'r' },
    });
    await workflows.get().then((all) => all.at(-1)?.waitForStatus('complete'));
    expect((await instance.status()).status).toBe('complete');
    const { error } = await rpc('tasks/get', { taskId });
    expect(error?.code).toBe(-32602);
    expect((await rpc('tasks/cancel', { taskId })).error?.code).toBe(-32602);
  });

  it('creates each task instance with a retention no longer than the task lives', async () => {
    const workflow = (testEnv as { DEFERRED_CALLS?: Workflow }).DEFERRED_CALLS as Workflow;
    const created: WorkflowInstanceCreateOptions[] = [];
    const recording = {
      create: (options: WorkflowInstanceCreateOptions) => {
        created.push(options);
        return workflow.create(options);
      },
      get: (id: string) => workflow.get(id),
    } as unknown as Workflow;
    const { result } = await call(
      'stock_check',
      { sku: 'T-2', ms: 5_000, deferredMs: 0 },
      { env: { DEFERRED_CALLS: recording } as Partial<Env> },
    );
    expect(result?.resultType).toBe('task');
    expect(created).toHaveLength(1);
    expect(created[0]?.retention).toEqual({ successRetention: TASK_TTL_MS, errorRetention: TASK_TTL_MS });
    await settled(String(result?.taskId));
  });

  it('has no tasks/result or tasks/list (removed by the extension)', async () => {
    expect((await rpc('tasks/result', { taskId: 'x' })).error?.code).toBe(-32601);
    expect((await rpc('tasks/list', {})).error?.code).toBe(-32601);
  });
});
