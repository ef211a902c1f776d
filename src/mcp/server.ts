// One MCP server per HTTP request (Streamable HTTP, stateless): tools/list from the registry's
// manifests, tools/call through the same pipeline and log line as an HTTP call, and a `later`
// function's deferred work as a task for a client that takes tasks (src/mcp/tasks.ts).
import { createMcpHandler, ProtocolError, ProtocolErrorCode, Server } from '@modelcontextprotocol/server';
import type { ConversationFeatures } from '../conversations/features.ts';
import { TaskCreated } from '../conversations/task.ts';
import { DEFAULT_BODY_LIMIT } from '../define.ts';
import type { Env } from '../env.ts';
import { execute, type PlatformFactory } from '../invoke.ts';
import { createLogger } from '../log.ts';
import type { Registry } from '../registry.ts';
import { newRequestId } from '../respond.ts';
import { settle } from '../settle.ts';
import { approvalWorkflowOf, createTaskResult, declaresTasks, serveTasks, taskWorkflowOf } from './tasks.ts';
import { toolOf, toolResult } from './tools.ts';

/** How the server introduces itself in `initialize`. */
export const SERVER_INFO = { name: 'agent-functions', version: '0.1.0' } as const;

/** What the MCP server serves: the Worker's functions, how handlers reach the platform, and deferral. */
export interface McpFunctions {
  registry: Registry;
  platform: PlatformFactory | undefined;
  /** createWorker's conversations option: with the DeferredCall workflow bound, `later` functions become tasks. */
  conversations?: ConversationFeatures | undefined;
}

/**
 * The server for one request of `owner` (who the request authenticated as: whose tasks it may read).
 */
const serverFor = (
  { registry, platform, conversations }: McpFunctions,
  owner: string,
  request: Request,
  env: Env,
  ctx: ExecutionContext,
): Server => {
  const server = new Server(SERVER_INFO, { capabilities: { tools: {} } });
  const workflow = conversations ? taskWorkflowOf(env) : undefined;
  if (workflow) serveTasks(server, workflow, owner, approvalWorkflowOf(env));
  server.setRequestHandler('tools/list', () => ({
    tools: registry.names().flatMap((name) => {
      const fn = registry.get(name);
      return fn ? [toolOf(fn)] : [];
    }),
  }));
  server.setRequestHandler('tools/call', async ({ params }, { mcpReq }) => {
    const fn = registry.get(params.name);
    if (!fn) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${params.name.slice(0, 64)}`);
    const requestId = newRequestId();
    const inv = {
      request,
      url: new URL(request.url),
      env,
      ctx,
      requestId,
      log: createLogger({ function: fn.name, requestId }),
      platform,
      // A function a person must approve goes through its feature: a task for a client that takes
      // them, which completes after the decision; a refusal otherwise (no conversation to tell).
      ...(fn.definition.approval
        ? { conversations, ...(workflow && declaresTasks(mcpReq.envelope) ? { task: { owner } } : {}) }
        : workflow && fn.policy?.later && declaresTasks(mcpReq.envelope)
          ? { conversations, task: { owner } }
          : {}),
    };
    // A copy: coercion writes into the arguments it is given.
    const outcome = await settle(inv, Date.now(), requestId, () => execute(fn, inv, () => ({ ...params.arguments })), {
      transport: 'mcp',
    });
    return outcome.ok && outcome.value instanceof TaskCreated ? createTaskResult(outcome.value) : toolResult(outcome);
  });
  return server;
};

/**
 * Answers one MCP request (both protocol eras the SDK serves) with the Worker's functions, for
 * `owner` (local development, the static token, or an OAuth client).
 * @example await serveMcp({ registry, platform }, 'local', request, env, ctx)
 */
export const serveMcp = (
  functions: McpFunctions,
  owner: string,
  request: Request,
  env: Env,
  ctx: ExecutionContext,
): Promise<Response> =>
  createMcpHandler(() => serverFor(functions, owner, request, env, ctx), {
    responseMode: 'json',
    maxRequestBodySize: DEFAULT_BODY_LIMIT,
  }).fetch(request);
