// The Worker's paths beside /functions/<name>, built once when the Worker is created: the manifest
// (and the OpenAPI document) behind its guard, and the router that tries the paths in order (the
// features' own paths with them).
import { bearerToken } from './bearerToken.ts';
import { type Env, EXPLAINS, isDevelopment, type WithProcess } from './env.ts';
import { FunctionError, notServedHere } from './errors.ts';
import { isManifestKey } from './keys.ts';
import type { Registry } from './registry.ts';
import { errorResponse, jsonResponse, newRequestId } from './respond.ts';
import type { FeatureRoute, RoutedRequest } from './route.ts';
import { DefinitionError, type FunctionManifest } from './schema/describe.ts';

/** A Worker's fetch handler. */
export type Fetch = (request: Request, env: Env, ctx: ExecutionContext) => Promise<Response>;
/** A path (`/oauth/*`: it and every path under it; trailing slashes do not count), its handler and its method (any when unset). */
type Route = FeatureRoute;

const matches = (route: string, path: string): boolean =>
  route.endsWith('/*') ? path === route.slice(0, -2) || path.startsWith(route.slice(0, -1)) : path === route;

/** The manifest of every function, for the holder of the manifest key (anyone under npm run dev). */
const guardedManifests =
  (registry: Registry) =>
  async (request: RoutedRequest, env: Env): Promise<FunctionManifest[]> => {
    const token = bearerToken(request);
    // Keyless under npm run dev, spelled out so a production bundle drops it (src/env.ts).
    const allowed =
      ((globalThis as WithProcess).process?.env.NODE_ENV !== 'production' && isDevelopment(env)) ||
      (env.FUNCTIONS_SECRET && token && (await isManifestKey(env.FUNCTIONS_SECRET, token)));
    if (!allowed) {
      throw new FunctionError(
        401,
        'unauthorized',
        EXPLAINS
          ? `The manifest needs "Authorization: Bearer <manifest key>" (manifestKey(FUNCTIONS_SECRET) from agent-functions/worker), as npm run sync sends it.`
          : `The manifest needs "Authorization: Bearer <manifest key>", as npm run sync sends it.`,
      );
    }
    try {
      return registry.names().flatMap((name) => registry.get(name)?.manifest ?? []);
    } catch (error) {
      // Only the secret's holder reads this: name the broken definition so sync can say which.
      if (!(error instanceof DefinitionError)) throw error;
      throw new FunctionError(500, 'invalid_definition', error.message);
    }
  };

/** The manifest and, when given, the OpenAPI document derived from it: same guard, same error for a broken definition. */
export const manifestRoutes = (
  registry: Registry,
  openapi: ((functions: FunctionManifest[], serverUrl: string) => object) | undefined,
): Route[] => {
  const manifests = guardedManifests(registry);
  // Paths under /functions/ never reach the router, so this is "/functions" alone.
  const routes: Route[] = [
    [
      '/functions',
      async (request, env) => {
        if (request.method !== 'GET') {
          throw new FunctionError(405, 'method_not_allowed', 'The manifest is read with GET.', {
            headers: { Allow: 'GET' },
          });
        }
        return jsonResponse({ functions: await manifests(request, env) }, 200, request.requestId);
      },
    ],
  ];
  if (openapi) {
    routes.push([
      '/openapi.json',
      async (request, env) =>
        jsonResponse(openapi(await manifests(request, env), new URL(request.url).origin), 200, request.requestId),
      'GET',
    ]);
  }
  return routes;
};

/** The router of every path but those under /functions/: tried in order, the first that matches answers, else 404. */
export const routerOf =
  (routes: Route[]) =>
  async (request: Request, url: URL, env: Env, ctx: ExecutionContext): Promise<Response> => {
    const routed = Object.assign(request, { requestId: newRequestId() });
    const path = url.pathname.replace(/\/+$/, '');
    try {
      for (const [pattern, handler, method] of routes) {
        if ((!method || method === request.method) && matches(pattern, path)) return await handler(routed, env, ctx);
      }
      throw notServedHere();
    } catch (error) {
      return errorResponse(error, routed.requestId);
    }
  };
