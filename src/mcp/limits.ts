// What keeps the OAuth endpoints of /mcp from being flooded or guessed: registration is refused
// while no client could be approved (no owner secret, or a weak one), its body and fields are
// bounded, and registrations and owner-secret attempts are counted per client address in
// Cloudflare's rate-limiting binding OAUTH_RATE_LIMIT (wrangler.toml), failing closed without it.
// What the owner reads later (a name, urls) holds no control or bidi character.
import type { ClientRegistrationCallbackResult } from '@cloudflare/workers-oauth-provider';
import { readBody } from '../args.ts';
import type { Env } from '../env.ts';
import { FunctionError } from '../errors.ts';
import { hasControl } from '../platform/client/printable.ts';
import { weakSecretProblem } from '../secretStrength.ts';

/** The largest registration body taken (RFC 7591 metadata of a real client is a few hundred bytes). */
export const REGISTRATION_BODY_LIMIT = 4 * 1024;
/** Bounds of the registration fields a person or a log reads. */
const MAX_NAME = 120;
const MAX_URL = 512;
const MAX_REDIRECTS = 8;

/** Why no OAuth client can be approved here now, or undefined when the owner secret is set and strong. */
export const ownerSecretProblem = (env: Env): string | undefined =>
  env.MCP_OWNER_SECRET
    ? weakSecretProblem(env.MCP_OWNER_SECRET, 'the Worker', 'MCP_OWNER_SECRET')
    : 'MCP_OWNER_SECRET is not set on the Worker';

/** An OAuth error answer (RFC 6749 §5.2 shape). */
export const oauthError = (status: number, error: string, description: string, headers?: HeadersInit): Response =>
  Response.json(
    { error, error_description: description },
    { status, headers: { 'cache-control': 'no-store', ...Object.fromEntries(new Headers(headers)) } },
  );

/** The address a request came from: set by Cloudflare's edge, so a client cannot choose it in production. */
export const clientAddress = (request: Request): string => request.headers.get('cf-connecting-ip') ?? 'unknown';

/**
 * Counts one attempt of `what` from the request's address: true while within the limit. Without
 * the binding nothing is allowed (fail closed: a flood is what the limit exists to stop).
 * @example if (!(await withinLimit(env, request, 'register'))) return tooMany()
 */
export const withinLimit = async (env: Env, request: Request, what: 'register' | 'owner-secret'): Promise<boolean> => {
  if (!env.OAUTH_RATE_LIMIT) return false;
  const { success } = await env.OAUTH_RATE_LIMIT.limit({ key: `${what}:${clientAddress(request)}` });
  return success;
};

/** A 429 with Retry-After, as an OAuth error. */
export const tooMany = (): Response =>
  oauthError(429, 'slow_down', 'Too many attempts from this address: wait a minute.', { 'retry-after': '60' });

/**
 * The registration request with its body read (at most REGISTRATION_BODY_LIMIT bytes), or the
 * answer that refuses it: while no client could be approved, over the rate limit, or too large.
 * @example const checked = await checkRegistration(request, env); if (checked instanceof Response) return checked;
 */
export const checkRegistration = async (request: Request, env: Env): Promise<Request | Response> => {
  const problem = ownerSecretProblem(env);
  if (problem) {
    return oauthError(
      503,
      'temporarily_unavailable',
      `No client can be approved here yet, so none is registered: ${problem}.`,
    );
  }
  if (!env.OAUTH_RATE_LIMIT) {
    return oauthError(503, 'temporarily_unavailable', 'Client registration is not set up: bind OAUTH_RATE_LIMIT.');
  }
  if (!(await withinLimit(env, request, 'register'))) return tooMany();
  let body: string;
  try {
    body = await readBody(request, REGISTRATION_BODY_LIMIT, Date.now() + 10_000);
  } catch (error) {
    if (error instanceof FunctionError) {
      return oauthError(
        error.status,
        'invalid_client_metadata',
        `The registration must be at most ${REGISTRATION_BODY_LIMIT} bytes.`,
      );
    }
    throw error;
  }
  return new Request(request, { body });
};

const tooLong = (value: unknown, max: number) => typeof value === 'string' && value.length > max;

/** A string with a control or bidi character: it could rewrite the owner's terminal (npm run mcp -- clients). */
const unsafe = (value: unknown) => typeof value === 'string' && hasControl(value);

const URL_FIELDS = ['client_uri', 'logo_uri', 'policy_uri', 'tos_uri', 'jwks_uri'];

/**
 * The bounds of a client's metadata, as the provider's registration callback: a rejection, or
 * nothing when the metadata may be stored.
 */
export const boundedMetadata = ({
  clientMetadata,
}: {
  clientMetadata: Record<string, unknown>;
}): ClientRegistrationCallbackResult | undefined => {
  const reject = (description: string): ClientRegistrationCallbackResult => ({
    code: 'invalid_client_metadata',
    description,
  });
  if (tooLong(clientMetadata.client_name, MAX_NAME)) return reject(`client_name is at most ${MAX_NAME} characters.`);
  for (const field of URL_FIELDS) {
    if (tooLong(clientMetadata[field], MAX_URL)) return reject(`${field} is at most ${MAX_URL} characters.`);
  }
  const redirects = clientMetadata.redirect_uris;
  for (const field of ['client_name', ...URL_FIELDS]) {
    if (unsafe(clientMetadata[field])) {
      return reject(`${field} may not hold control characters (escape sequences, line breaks, bidi controls).`);
    }
  }
  if (Array.isArray(redirects) && redirects.some(unsafe)) {
    return reject('redirect_uris may not hold control characters (escape sequences, line breaks, bidi controls).');
  }
  if (
    Array.isArray(redirects) &&
    (redirects.length > MAX_REDIRECTS || redirects.some((uri) => tooLong(uri, MAX_URL)))
  ) {
    return reject(`redirect_uris holds at most ${MAX_REDIRECTS} urls of at most ${MAX_URL} characters.`);
  }
  return undefined;
};
