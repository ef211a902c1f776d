// The MCP module a Worker opts in to (createWorker({ functions, mcp: () => import('agent-functions/mcp') })):
// `/mcp` serves every function as a tool; in production it needs a token, either the static one
// derived from FUNCTIONS_SECRET or an OAuth 2.1 access token; under local development it is open.
import { type Env, isDevelopment } from '../env.ts';
import { FunctionError } from '../errors.ts';
import type { PlatformFactory } from '../invoke.ts';
import { isMcpKey } from '../keys.ts';
import type { Registry } from '../registry.ts';
import { errorResponse, newRequestId } from '../respond.ts';
import { oauthProvider } from './oauth.ts';
import { checkOrigin } from './origin.ts';
import { type McpFunctions, serveMcp } from './server.ts';

const bearer = (request: Request): string | undefined =>
  /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1];

const refuse = (status: number, code: string, message: string, headers?: Record<string, string>): never => {
  throw new FunctionError(status, code, message, headers ? { headers } : {});
};

const route = async (functions: McpFunctions, request: Request, env: Env, ctx: ExecutionContext): Promise<Response> => {
  const url = new URL(request.url);
  const isEndpoint = url.pathname === '/mcp';
  checkOrigin(request, url, env);
  if (isDevelopment(env)) {
    return isEndpoint
      ? serveMcp(functions, request, env, ctx)
      : refuse(404, 'not_found', 'Local development needs no OAuth: /mcp is open.');
  }
  const secret = env.FUNCTIONS_SECRET;
  if (!secret) return refuse(503, 'not_configured', 'The MCP server is not configured: FUNCTIONS_SECRET is unset.');
  const token = bearer(request);
  if (isEndpoint && token && (await isMcpKey(secret, token))) return serveMcp(functions, request, env, ctx);
  if (!env.OAUTH_KV) {
    return isEndpoint
      ? refuse(
          401,
          'unauthorized',
          'The MCP server needs "Authorization: Bearer <MCP token>" (mcpKey(FUNCTIONS_SECRET) from agent-functions/worker).',
          {
            'www-authenticate': 'Bearer',
          },
        )
      : refuse(404, 'not_found', 'OAuth is not configured here: bind the OAUTH_KV namespace (docs/mcp.md).');
  }
  return oauthProvider(url.origin, (req, e, c) => serveMcp(functions, req, e, c)).fetch(request, env, ctx);
};

/**
 * The fetch handler of `/mcp`, `/oauth/*` and `/.well-known/*` over the functions of `registry`.
 * @example createMcpFetch(registry, platformFromEnv)(request, env, ctx)
 */
export const createMcpFetch =
  (registry: Registry, platform: PlatformFactory | undefined) =>
  async (request: Request, env: Env, ctx: ExecutionContext): Promise<Response> => {
    try {
      return await route({ registry, platform }, request, env, ctx);
    } catch (error) {
      if (!(error instanceof FunctionError)) throw error;
      return errorResponse(error, newRequestId());
    }
  };
