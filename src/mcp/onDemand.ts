// createWorker's `mcp` option: the MCP endpoint, its OAuth 2.1 routes and the metadata clients
// discover them by, with agent-functions/mcp imported on the first request to one of them. A file of
// its own, exported by agent-functions/worker: a Worker without MCP bundles none of it.
import type { Pipeline } from '../call.ts';
import type { FeatureRoute } from '../route.ts';
import type { Fetch } from '../workerRoutes.ts';

/** What `agent-functions/mcp` exports: the MCP endpoint and its OAuth routes over the Worker's pipeline. */
export interface McpModule {
  createMcpFetch(pipeline: Pipeline): Fetch;
}

/** createWorker's `mcp` option: the paths MCP serves over the Worker's pipeline. */
export type McpRoutes = (pipeline: Pipeline) => FeatureRoute[];

/**
 * Serves every function as an MCP tool on `/mcp`, with its OAuth routes (docs/mcp.md); `load` is
 * called on the first MCP request, so a Worker that never sees one never evaluates the module, and
 * again after a failed import.
 * @example createWorker({ functions, mcp: mcpOnDemand(() => import('agent-functions/mcp')) })
 */
export const mcpOnDemand =
  (load: () => Promise<McpModule>): McpRoutes =>
  (pipeline) => {
    let loaded: Promise<Fetch> | undefined;
    const serve: FeatureRoute[1] = async (request, env, ctx) => {
      loaded ??= load().then((module) => module.createMcpFetch(pipeline));
      return (
        await loaded.catch((error: unknown) => {
          loaded = undefined;
          throw error;
        })
      )(request, env, ctx);
    };
    return [
      ['/mcp', serve],
      ['/oauth/*', serve],
      ['/.well-known/*', serve],
    ];
  };
