// OAuth 2.1 for `/mcp` as the MCP authorization spec describes it, by workers-oauth-provider:
// protected resource metadata, authorization server metadata, dynamic client registration,
// authorization code with PKCE, tokens in the OAUTH_KV namespace. The Worker is both the
// authorization server and its one resource; the owner approves clients on the consent page, and
// lists or revokes them (clients.ts). A token opens /mcp only while its grant was approved under
// the Worker's current secrets (grants.ts).
import { type OAuthHelpers, OAuthProvider } from '@cloudflare/workers-oauth-provider';
import type { Env } from '../env.ts';
import { CLIENTS_PATH, clients } from './clients.ts';
import { AUTHORIZE_PATH, consent, SCOPES } from './consent.ts';
import { isCurrentGrant } from './grants.ts';
import { boundedMetadata } from './limits.ts';

type Fetch = (request: Request, env: Env, ctx: ExecutionContext) => Promise<Response>;

/** Where the OAuth endpoints live (the Worker routes `/oauth/*` and `/.well-known/*` here). */
export const OAUTH_PATHS: { authorize: string; token: string; register: string } = {
  authorize: AUTHORIZE_PATH,
  token: '/oauth/token',
  register: '/oauth/register',
};

/** How long a registered client that never finishes a grant is kept; one in use is renewed by its refreshes. */
export const CLIENT_REGISTRATION_TTL_SECONDS: number = 7 * 24 * 3600;

/** The answer to a token whose grant predates a rotation of the Worker's secrets. */
const staleGrant = (origin: string) =>
  Response.json(
    {
      error: 'invalid_token',
      error_description: "This access was approved before the server's secrets were rotated: authorize again.",
    },
    {
      status: 401,
      headers: {
        'www-authenticate': `Bearer error="invalid_token", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
        'cache-control': 'no-store',
      },
    },
  );

// The resource is the endpoint's own https url, known from the first request: one provider per
// origin, for each Worker (`owner`: what the Worker serves) created in the isolate, since a provider
// keeps the `serve` it was made with.
const providersOf = new WeakMap<object, Map<string, OAuthProvider<Env>>>();

/**
 * The provider guarding `serve` (the endpoint of the Worker `owner` stands for) at `origin` (an https origin).
 * @example await oauthProvider(functions, url.origin, serve).fetch(request, env, ctx)
 */
export const oauthProvider = (owner: object, origin: string, serve: Fetch): OAuthProvider<Env> => {
  const providers = providersOf.get(owner) ?? new Map<string, OAuthProvider<Env>>();
  providersOf.set(owner, providers);
  let provider = providers.get(origin);
  if (!provider) {
    if (providers.size >= 8) providers.clear();
    provider = new OAuthProvider<Env>({
      apiRoute: '/mcp',
      apiHandler: {
        fetch: async (request, env, ctx) => {
          const { props } = ctx as ExecutionContext & { props?: unknown };
          return (await isCurrentGrant(props, env)) ? serve(request, env, ctx) : staleGrant(origin);
        },
      },
      defaultHandler: {
        fetch: (request, env) => {
          const { pathname } = new URL(request.url);
          const helpers = env as Env & { OAUTH_PROVIDER: OAuthHelpers };
          if (pathname === AUTHORIZE_PATH) return consent(request, helpers);
          if (pathname === CLIENTS_PATH || pathname.startsWith(`${CLIENTS_PATH}/`)) {
            return clients(request, helpers, helpers.OAUTH_PROVIDER);
          }
          return Response.json({ error: { code: 'not_found', message: 'No OAuth endpoint here.' } }, { status: 404 });
        },
      },
      authorizeEndpoint: OAUTH_PATHS.authorize,
      tokenEndpoint: OAUTH_PATHS.token,
      clientRegistrationEndpoint: OAUTH_PATHS.register,
      clientRegistrationTTL: CLIENT_REGISTRATION_TTL_SECONDS,
      clientRegistrationCallback: boundedMetadata,
      scopesSupported: Object.keys(SCOPES),
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
