// One MCP server per HTTP request (Streamable HTTP, stateless): tools/list from the registry's
// manifests, tools/call through the same pipeline and log line as an HTTP call.
import { createMcpHandler, ProtocolError, ProtocolErrorCode, Server } from '@modelcontextprotocol/server';
import { DEFAULT_BODY_LIMIT } from '../define.ts';
import type { Env } from '../env.ts';
import { execute, type PlatformFactory } from '../invoke.ts';
import { createLogger } from '../log.ts';
import type { Registry } from '../registry.ts';
import { newRequestId } from '../respond.ts';
import { settle } from '../settle.ts';
import { toolOf, toolResult } from './tools.ts';

/** How the server introduces itself in `initialize`. */
export const SERVER_INFO = { name: 'agent-functions', version: '0.1.0' } as const;

/** What the MCP server serves: the Worker's functions, and how handlers reach the platform. */
export interface McpFunctions {
  registry: Registry;
  platform: PlatformFactory | undefined;
}

const serverFor = ({ registry, platform }: McpFunctions, request: Request, env: Env, ctx: ExecutionContext): Server => {
  const server = new Server(SERVER_INFO, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', () => ({
    tools: registry.names().flatMap((name) => {
      const fn = registry.get(name);
      return fn ? [toolOf(fn)] : [];
    }),
  }));
  server.setRequestHandler('tools/call', async ({ params }) => {
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
    };
    // A copy: coercion writes into the arguments it is given.
    const outcome = await settle(inv, Date.now(), requestId, () => execute(fn, inv, () => ({ ...params.arguments })), {
      transport: 'mcp',
    });
    return toolResult(outcome);
  });
  return server;
};

/**
 * Answers one MCP request (both protocol eras the SDK serves) with the Worker's functions.
 * @example await serveMcp({ registry, platform }, request, env, ctx)
 */
export const serveMcp = (
  functions: McpFunctions,
  request: Request,
  env: Env,
  ctx: ExecutionContext,
): Promise<Response> =>
  createMcpHandler(() => serverFor(functions, request, env, ctx), {
    responseMode: 'json',
    maxRequestBodySize: DEFAULT_BODY_LIMIT,
  }).fetch(request);
