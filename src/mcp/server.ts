// One MCP server per HTTP request (Streamable HTTP, stateless): tools/list from the registry's
// manifests, tools/call through the same pipeline and record as an HTTP call, and a `later`
// function's deferred work as a task for a client that takes tasks (src/mcp/tasks.ts).
import { createMcpHandler, ProtocolError, ProtocolErrorCode, Server } from '@modelcontextprotocol/server';
import { type Pipeline, TaskCreated } from '../call.ts';
import { DEFAULT_BODY_LIMIT } from '../define.ts';
import type { Env } from '../env.ts';
import { createLogger } from '../log.ts';
import { closeRecord, observe, openRecord } from '../record.ts';
import { newRequestId } from '../respond.ts';
import { settle } from '../settle.ts';
import { approvalWorkflowOf, createTaskResult, declaresTasks, serveTasks, taskWorkflowOf } from './tasks.ts';
import { toolOf, toolResult } from './tools.ts';

/** How the server introduces itself in `initialize`. */
export const SERVER_INFO = { name: 'agent-functions', version: '0.1.0' } as const;

/**
 * The server for one request of `owner` (who the request authenticated as: whose tasks it may read).
 */
const serverFor = (
  { registry, accounts, execute, defers }: Pipeline,
  owner: string,
  request: Request,
  env: Env,
  ctx: ExecutionContext,
): Server => {
  const server = new Server(SERVER_INFO, { capabilities: { tools: {} } });
  // With the conversations option and the DeferredCall workflow bound, `later` functions become tasks.
  const workflow = defers ? taskWorkflowOf(env) : undefined;
  if (workflow) serveTasks(server, workflow, owner, approvalWorkflowOf(env));
  server.setRequestHandler('tools/list', () => ({
    tools: registry.names().flatMap((name) => {
      const fn = registry.get(name);
      return fn ? [toolOf(fn)] : [];
    }),
  }));
  server.setRequestHandler('tools/call', async ({ params }, { mcpReq }) => {
    const requestId = newRequestId();
    const arrivedAt = Date.now();
    // Its one record (src/record.ts), as an HTTP call's: the account once resolved.
    const record = openRecord('mcp', requestId);
    const fn = registry.get(params.name);
    if (!fn) {
      // A name the Worker does not serve: recorded without it (never the client's text).
      observe(createLogger({ requestId }), closeRecord(record, 404, 'unknown_function', arrivedAt), env, ctx);
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${params.name.slice(0, 64)}`);
    }
    record.function = fn.name;
    // MCP calls act in the first account of the accounts file (docs/mcp.md "Accounts"); the logger
    // names it once resolved, as an HTTP call's does.
    let log = createLogger({ function: fn.name, requestId });
    // A `later` function, or one a person must approve, is a task for a client that takes them (it
    // completes after the work or the decision); otherwise it runs, or is refused, as a plain call.
    const task =
      workflow && (fn.policy?.later || fn.definition.approval) && declaresTasks(mcpReq.envelope)
        ? { owner }
        : undefined;
    const run = async () => {
      const { account, platform } = await accounts(env, undefined, log);
      record.account = account.name;
      log = createLogger({ function: fn.name, account: account.name, requestId });
      // A copy: coercion writes into the arguments it is given. MCP carries no conversation.
      const setup = { env, ctx, requestId, log, request, arrivedAt, account, platform, task, mark: record };
      return execute(fn, setup, () => ({ args: { ...params.arguments } }));
    };
    const outcome = await settle(() => log, arrivedAt, record, run, env, ctx);
    return outcome.ok && outcome.value instanceof TaskCreated ? createTaskResult(outcome.value) : toolResult(outcome);
  });
  return server;
};

/**
 * Answers one MCP request (both protocol eras the SDK serves) with the Worker's functions, for
 * `owner` (local development, the static token, or an OAuth client).
 * @example await serveMcp(pipeline, 'local', request, env, ctx)
 */
export const serveMcp = (
  functions: Pipeline,
  owner: string,
  request: Request,
  env: Env,
  ctx: ExecutionContext,
): Promise<Response> =>
  createMcpHandler(() => serverFor(functions, owner, request, env, ctx), {
    responseMode: 'json',
    maxRequestBodySize: DEFAULT_BODY_LIMIT,
  }).fetch(request);
