// OAuth 2.1 for `/mcp` as the MCP authorization spec describes it, by workers-oauth-provider:
// protected resource metadata, authorization server metadata, dynamic client registration,
// authorization code with PKCE, tokens in the OAUTH_KV namespace. The Worker is both the
// authorization server and its one resource; the owner approves clients on the consent page.
import { OAuthProvider } from '@cloudflare/workers-oauth-provider';
import type { Env } from '../env.ts';
import { AUTHORIZE_PATH, consent } from './consent.ts';

type Fetch = (request: Request, env: Env, ctx: ExecutionContext) => Promise<Response>;

/** Where the OAuth endpoints live (the Worker routes `/oauth/*` and `/.well-known/*` here). */
export const OAUTH_PATHS: { authorize: string; token: string; register: string } = {
  authorize: AUTHORIZE_PATH,
  token: '/oauth/token',
  register: '/oauth/register',
};

/** The one scope: calling the functions. */
export const MCP_SCOPE = 'functions';

// The resource is the endpoint's own https url, known from the first request; one provider per origin.
const providers = new Map<string, OAuthProvider<Env>>();

/**
 * The provider guarding `serve` for the Worker at `origin` (an https origin).
 * @example await oauthProvider(url.origin, serve).fetch(request, env, ctx)
 */
export const oauthProvider = (origin: string, serve: Fetch): OAuthProvider<Env> => {
  let provider = providers.get(origin);
  if (!provider) {
    if (providers.size >= 8) providers.clear();
    provider = new OAuthProvider<Env>({
      apiRoute: '/mcp',
      apiHandler: { fetch: (request, env, ctx) => serve(request, env, ctx) },
      defaultHandler: {
        fetch: (request, env) => {
          if (new URL(request.url).pathname === AUTHORIZE_PATH)
            return consent(request, env as Parameters<typeof consent>[1]);
          return Response.json({ error: { code: 'not_found', message: 'No OAuth endpoint here.' } }, { status: 404 });
        },
      },
      authorizeEndpoint: OAUTH_PATHS.authorize,
      tokenEndpoint: OAUTH_PATHS.token,
      clientRegistrationEndpoint: OAUTH_PATHS.register,
      scopesSupported: [MCP_SCOPE],
      resourceMetadata: {
        resource: `${origin}/mcp`,
        authorization_servers: [origin],
        resource_name: 'agent-functions',
      },
    });
    providers.set(origin, provider);
  }
  return provider;
};
