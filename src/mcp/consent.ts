// The OAuth consent page of `/mcp` (GET/POST /oauth/authorize): the Worker has one owner, who
// approves a client by typing MCP_OWNER_SECRET. Everything a client chose is escaped. The secret is
// compared only within a consent transaction this browser holds, and attempts are counted per
// client address; a weak secret serves no page at all; only known scopes are asked for and granted.
import {
  AuthorizationError,
  type AuthRequest,
  authorizationErrorRedirect,
  CimdFetchError,
  type ConsentDescription,
  type OAuthHelpers,
} from '@cloudflare/workers-oauth-provider';
import type { Env } from '../env.ts';
import { safeEqual } from '../keys.ts';
import { OWNER } from './clients.ts';
import { grantGeneration } from './grants.ts';
import { ownerSecretProblem, withinLimit } from './limits.ts';

/** The path of the consent page, advertised as the authorization endpoint. */
export const AUTHORIZE_PATH = '/oauth/authorize';

/** The scopes a client may ask for, with the words the owner reads for each. */
export const SCOPES: Readonly<Record<string, string>> = { functions: "call this Worker's functions" };

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const HTML = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' };

const page = (title: string, body: string, status = 200, headers: HeadersInit = HTML): Response =>
  new Response(
    `<!doctype html><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title>${body}`,
    { status, headers },
  );

/** The scopes asked for (the one scope when none is named), or the first one this Worker does not know. */
const scopesOf = (authRequest: AuthRequest): { ok: true; scopes: string[] } | { ok: false; unknown: string } => {
  const asked = authRequest.scope.length > 0 ? authRequest.scope : Object.keys(SCOPES);
  const unknown = asked.find((scope) => !Object.hasOwn(SCOPES, scope));
  return unknown === undefined ? { ok: true, scopes: asked } : { ok: false, unknown };
};

/** The client's redirect (validated by the provider) carrying an invalid_scope error (RFC 6749 §4.1.2.1). */
const scopeRefused = (authRequest: AuthRequest, description: string): Response =>
  new Response(null, {
    status: 302,
    headers: {
      location: authorizationErrorRedirect(authRequest, 'invalid_scope', description),
      'cache-control': 'no-store',
    },
  });

const consentPage = (details: ConsentDescription, scopes: string[], handle: string, wrongSecret: boolean) => {
  const name = escapeHtml(details.clientName);
  const publisher = details.clientDomain
    ? `Published by <strong>${escapeHtml(details.clientDomain)}</strong>.`
    : 'This app registered itself; its name is not verified.';
  const loopback = details.redirectIsLoopback
    ? '<p><strong>This sends access to an app on your computer.</strong> Continue only if you just started connecting it.</p>'
    : '';
  const asks = scopes.map((scope) => `<li>${escapeHtml(SCOPES[scope] ?? scope)}</li>`).join('');
  return `<h1>Allow ${name} to call this Worker's functions?</h1>
<p>${publisher} Access will be sent to <strong>${escapeHtml(details.redirectHost)}</strong>.</p>${loopback}
<p>It asks to:</p><ul>${asks}</ul>
${wrongSecret ? '<p role="alert"><strong>That owner secret is wrong.</strong></p>' : ''}
<form method="post">
<input type="hidden" name="handle" value="${escapeHtml(handle)}">
<p><label>Owner secret (MCP_OWNER_SECRET) <input type="password" name="owner_secret" autocomplete="current-password" required></label></p>
<p><button name="decision" value="approve">Allow</button> <button name="decision" value="deny" formnovalidate>Deny</button></p>
</form>`;
};

/** The consent page for `authRequest`, with a new transaction (a handle bound to this browser by a cookie). */
const consentFor = async (oauth: OAuthHelpers, authRequest: AuthRequest, wrongSecret = false): Promise<Response> => {
  const scopes = scopesOf(authRequest);
  if (!scopes.ok) {
    return scopeRefused(authRequest, `This server grants only: ${Object.keys(SCOPES).join(', ')}.`);
  }
  const details = await oauth.describeConsent(authRequest);
  const consent = await oauth.beginConsent(authRequest);
  consent.headers.set('content-type', HTML['content-type']);
  consent.headers.set('cache-control', 'no-store');
  return page('Authorize', consentPage(details, scopes.scopes, consent.handle, wrongSecret), 200, consent.headers);
};

const decide = async (
  oauth: OAuthHelpers,
  request: Request,
  env: Env & { MCP_OWNER_SECRET: string },
): Promise<Response> => {
  const form = await request.clone().formData();
  const handle = String(form.get('handle') ?? '');
  if (form.get('decision') !== 'approve') {
    const denied = await oauth.denyConsent(request, handle);
    denied.headers.set('location', denied.redirectTo);
    return new Response(null, { status: 302, headers: denied.headers });
  }
  // The transaction first: no secret is compared for a request that holds none (it throws), and
  // each one is spent by one attempt, right or wrong.
  const approved = await oauth.approveConsent(request, handle);
  if (!(await withinLimit(env, request, 'owner-secret'))) {
    return page(
      'Too many attempts',
      '<p>Too many attempts from this address. Wait a minute, then start again.</p>',
      429,
      {
        ...HTML,
        'retry-after': '60',
      },
    );
  }
  if (!(await safeEqual(String(form.get('owner_secret') ?? ''), env.MCP_OWNER_SECRET))) {
    return consentFor(oauth, approved.request, true);
  }
  const scopes = scopesOf(approved.request);
  const generation = await grantGeneration(env);
  if (!scopes.ok || generation === undefined) {
    return scopeRefused(approved.request, 'The scopes asked for cannot be granted.');
  }
  const { redirectTo } = await oauth.completeAuthorization({
    request: approved.request,
    userId: OWNER,
    metadata: {},
    scope: scopes.scopes,
    props: { owner: true, generation, clientId: approved.request.clientId },
  });
  approved.headers.set('location', redirectTo);
  return new Response(null, { status: 302, headers: approved.headers });
};

/**
 * Serves the consent page: shows who asks, for what and where the tokens go, and approves only with
 * the owner secret. Errors a client could have caused are shown, never redirected to an unchecked url.
 */
export const consent = async (request: Request, env: Env & { OAUTH_PROVIDER: OAuthHelpers }): Promise<Response> => {
  const problem = ownerSecretProblem(env);
  if (problem || !env.MCP_OWNER_SECRET) {
    const weak = env.MCP_OWNER_SECRET ? ' It is too weak to guard anything.' : '';
    return page(
      'Not configured',
      `<p>No client can be approved yet: ${escapeHtml(problem ?? '')}.${weak} Run <code>wrangler secret put MCP_OWNER_SECRET</code> with a random value (<code>openssl rand -base64 32</code>).</p>`,
      503,
    );
  }
  try {
    if (request.method === 'POST')
      return await decide(env.OAUTH_PROVIDER, request, { ...env, MCP_OWNER_SECRET: env.MCP_OWNER_SECRET });
    if (request.method === 'GET')
      return await consentFor(env.OAUTH_PROVIDER, await env.OAUTH_PROVIDER.parseAuthRequest(request));
    return page('Not allowed', '<p>Use GET or POST.</p>', 405, { ...HTML, allow: 'GET, POST' });
  } catch (error) {
    if (error instanceof AuthorizationError && error.redirectTo) return Response.redirect(error.redirectTo, 302);
    if (error instanceof AuthorizationError || error instanceof CimdFetchError) {
      const message = error instanceof AuthorizationError ? error.description : 'This app could not be verified.';
      return page('Cannot authorize', `<p>${escapeHtml(message)}</p>`, 400);
    }
    throw error;
  }
};
