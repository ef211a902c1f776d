// DNS rebinding protection of `/mcp`: a web page must not reach the endpoint through a browser.
// Under local development (open, no token) Host and Origin must both be this machine; in
// production an Origin, when a browser sends one, must be the Worker's own or one listed.
import { type Env, isDevelopment } from '../env.ts';
import { FunctionError } from '../errors.ts';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

const hostnameOf = (origin: string): string | undefined => {
  try {
    return new URL(origin).hostname;
  } catch {
    return undefined;
  }
};

const forbidden = (what: string) =>
  new FunctionError(403, 'forbidden_origin', `${what} is not allowed to reach this MCP server.`);

/**
 * Throws 403 when the request's Host or Origin could be a rebinding attack.
 * @example checkOrigin(request, new URL(request.url), env)
 */
export const checkOrigin = (request: Request, url: URL, env: Env): void => {
  const origin = request.headers.get('origin');
  if (isDevelopment(env)) {
    const host = hostnameOf(`http://${request.headers.get('host') ?? url.host}`);
    if (!host || !LOOPBACK.has(host)) throw forbidden('This Host');
    if (origin !== null && !LOOPBACK.has(hostnameOf(origin) ?? '')) throw forbidden('This Origin');
    return;
  }
  if (origin === null || origin === url.origin) return;
  const allowed = (env.MCP_ALLOWED_ORIGINS ?? '').split(',').map((entry) => entry.trim());
  if (!allowed.includes(origin)) throw forbidden('This Origin');
};
