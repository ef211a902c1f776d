// The MCP module a Worker opts in to (createWorker({ functions, mcp: mcpOnDemand(() => import('agent-functions/mcp')) })):
// `/mcp` serves every function as a tool; in production it needs an OAuth 2.1 access token, or
// the static one derived from FUNCTIONS_SECRET when the operator turns it on (MCP_STATIC_TOKEN =
// "on"); under local development it is open. The platform's signature policy does not apply here:
// MCP calls come from the operator's own tools (docs/platform-contract.md §8).

import { bearerToken } from '../bearerToken.ts';
import type { Pipeline } from '../call.ts';
import { type Env, isDevelopment } from '../env.ts';
import { FunctionError } from '../errors.ts';
import { isMcpKey } from '../keys.ts';
import { errorResponse, newRequestId } from '../respond.ts';
import type { GrantProps } from './grants.ts';
import { checkRegistration } from './limits.ts';
import { OAUTH_PATHS, oauthProvider } from './oauth.ts';
import { checkOrigin } from './origin.ts';
import { serveMcp } from './server.ts';

/** Whether the operator turned the static MCP token on (off by default: it opens every function and is revoked only by rotating FUNCTIONS_SECRET). */
const staticTokenOn = (env: Env): boolean => env.MCP_STATIC_TOKEN?.trim().toLowerCase() === 'on';

/** Whose tasks an OAuth request may read: its grant's client (grants approved before clients were recorded share one). */
const ownerOf = (ctx: ExecutionContext): string =>
  `oauth:${(ctx as ExecutionContext & { props?: Partial<GrantProps> }).props?.clientId ?? ''}`;

const refuse = (status: number, code: string, message: string, headers?: Record<string, string>): never => {
  throw new FunctionError(status, code, message, headers ? { headers } : {});
};

const route = async (functions: Pipeline, request: Request, env: Env, ctx: ExecutionContext): Promise<Response> => {
  const url = new URL(request.url);
  const isEndpoint = url.pathname === '/mcp';
  checkOrigin(request, url, env);
  if (isDevelopment(env)) {
    return isEndpoint
      ? serveMcp(functions, 'local', request, env, ctx)
      : refuse(404, 'not_found', 'Local development needs no OAuth: /mcp is open.');
  }
  const secret = env.FUNCTIONS_SECRET;
  if (!secret) return refuse(503, 'not_configured', 'The MCP server is not configured: FUNCTIONS_SECRET is unset.');
  const token = bearerToken(request);
  if (isEndpoint && token && staticTokenOn(env) && (await isMcpKey(secret, token))) {
    return serveMcp(functions, 'static-token', request, env, ctx);
  }
  if (!env.OAUTH_KV) {
    return isEndpoint
      ? refuse(
          401,
          'unauthorized',
          'The MCP server needs "Authorization: Bearer <MCP token>": bind OAUTH_KV for OAuth, or turn the static token on (MCP_STATIC_TOKEN = "on").',
          {
            'www-authenticate': 'Bearer',
          },
        )
      : refuse(404, 'not_found', 'OAuth is not configured here: bind the OAUTH_KV namespace (docs/mcp.md).');
  }
  let forProvider = request;
  if (url.pathname === OAUTH_PATHS.register && request.method === 'POST') {
    const checked = await checkRegistration(request, env);
    if (checked instanceof Response) return checked;
    forProvider = checked;
  }
  return oauthProvider(functions, url.origin, (req, e, c) => serveMcp(functions, ownerOf(c), req, e, c)).fetch(
    forProvider,
    env,
    ctx,
  );
};

/**
 * The fetch handler of `/mcp`, `/oauth/*` and `/.well-known/*` over the Worker's pipeline.
 * @example createMcpFetch(pipeline)(request, env, ctx)
 */
export const createMcpFetch = (functions: Pipeline) => {
  // One pipeline per Worker: its OAuth providers are kept by it (src/mcp/oauth.ts).
  return async (request: Request, env: Env, ctx: ExecutionContext): Promise<Response> => {
    try {
      return await route(functions, request, env, ctx);
    } catch (error) {
      if (!(error instanceof FunctionError)) throw error;
      return errorResponse(error, newRequestId());
    }
  };
};
