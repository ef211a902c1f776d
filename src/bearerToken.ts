// The one reader of `Authorization: Bearer <token>` (function keys, the manifest key, MCP tokens,
// and the local platform's API key all arrive this way).

const BEARER = /^Bearer\s+(\S+)$/i;

/**
 * The token of a request's `Authorization: Bearer` header, or undefined when there is none.
 * @example const token = bearerToken(request); if (!token) return unauthorized();
 */
export const bearerToken = (request: Request): string | undefined =>
  BEARER.exec(request.headers.get('authorization') ?? '')?.[1];
