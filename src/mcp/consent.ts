// The OAuth consent page of `/mcp` (GET/POST /oauth/authorize): the Worker has one owner, who
// approves a client by typing MCP_OWNER_SECRET. Everything a client chose is escaped.
import {
  AuthorizationError,
  CimdFetchError,
  type ConsentDescription,
  type OAuthHelpers,
} from '@cloudflare/workers-oauth-provider';
import type { Env } from '../env.ts';
import { safeEqual } from '../keys.ts';

/** The path of the consent page, advertised as the authorization endpoint. */
export const AUTHORIZE_PATH = '/oauth/authorize';

/** The one user this authorization server knows. */
const OWNER = 'owner';

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const HTML = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' };

const page = (title: string, body: string, status = 200, headers: HeadersInit = HTML): Response =>
  new Response(
    `<!doctype html><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title>${body}`,
    { status, headers },
  );

const consentPage = (details: ConsentDescription, handle: string, wrongSecret: boolean) => {
  const name = escapeHtml(details.clientName);
  const publisher = details.clientDomain
    ? `Published by <strong>${escapeHtml(details.clientDomain)}</strong>.`
    : 'This app registered itself; its name is not verified.';
  const loopback = details.redirectIsLoopback
    ? '<p><strong>This sends access to an app on your computer.</strong> Continue only if you just started connecting it.</p>'
    : '';
  return `<h1>Allow ${name} to call this Worker's functions?</h1>
<p>${publisher} Access will be sent to <strong>${escapeHtml(details.redirectHost)}</strong>.</p>${loopback}
${wrongSecret ? '<p role="alert"><strong>That owner secret is wrong.</strong></p>' : ''}
<form method="post">
<input type="hidden" name="handle" value="${escapeHtml(handle)}">
<p><label>Owner secret (MCP_OWNER_SECRET) <input type="password" name="owner_secret" autocomplete="current-password" required></label></p>
<p><button name="decision" value="approve">Allow</button> <button name="decision" value="deny" formnovalidate>Deny</button></p>
</form>`;
};

const showConsent = async (oauth: OAuthHelpers, request: Request, wrongSecret = false, handle?: string) => {
  const authRequest = await oauth.parseAuthRequest(request);
  const details = await oauth.describeConsent(authRequest);
  const consent = await oauth.beginConsent(authRequest);
  consent.headers.set('content-type', HTML['content-type']);
  consent.headers.set('cache-control', 'no-store');
  return page('Authorize', consentPage(details, handle ?? consent.handle, wrongSecret), 200, consent.headers);
};

const decide = async (oauth: OAuthHelpers, request: Request, ownerSecret: string): Promise<Response> => {
  const form = await request.clone().formData();
  const handle = String(form.get('handle') ?? '');
  if (form.get('decision') !== 'approve') {
    const denied = await oauth.denyConsent(request, handle);
    denied.headers.set('location', denied.redirectTo);
    return new Response(null, { status: 302, headers: denied.headers });
  }
  if (!(await safeEqual(String(form.get('owner_secret') ?? ''), ownerSecret))) {
    // The handle is not spent: show the same page again, with a warning.
    return showConsent(oauth, request, true);
  }
  const approved = await oauth.approveConsent(request, handle);
  const { redirectTo } = await oauth.completeAuthorization({
    request: approved.request,
    userId: OWNER,
    metadata: {},
    scope: approved.request.scope,
    props: { owner: true },
  });
  approved.headers.set('location', redirectTo);
  return new Response(null, { status: 302, headers: approved.headers });
};

/**
 * Serves the consent page: shows who asks and where the tokens go, and approves only with the
 * owner secret. Errors a client could have caused are shown, never redirected to an unchecked url.
 */
export const consent = async (request: Request, env: Env & { OAUTH_PROVIDER: OAuthHelpers }): Promise<Response> => {
  const ownerSecret = env.MCP_OWNER_SECRET;
  if (!ownerSecret) {
    return page(
      'Not configured',
      '<p>No client can be approved yet: the owner secret is not set. Run <code>wrangler secret put MCP_OWNER_SECRET</code>.</p>',
      503,
    );
  }
  try {
    if (request.method === 'POST') return await decide(env.OAUTH_PROVIDER, request, ownerSecret);
    if (request.method === 'GET') return await showConsent(env.OAUTH_PROVIDER, request);
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
