// The Worker as a function of its registry: a short table of routes, one pipeline per request. Not
// itty-router (the CLI's local platform uses it): six paths need no router, and the table costs about
// 0.3 KiB gzip less in every deployed Worker (docs/performance.md, the framework's share).
import type { AccountStoreService } from './accounts/admin.ts';
import { type AccountsService, ONE_ACCOUNT, type PlatformFactory } from './accounts/resolve.ts';
import type { Pipeline } from './call.ts';
import type { ConversationFeatures } from './conversations/features.ts';
import type { MayMessage } from './conversations/runtime.ts';
import type { AnyFunctionDefinition } from './define.ts';
import { type Env, isDevelopment, type WithProcess } from './env.ts';
import { FunctionError } from './errors.ts';
import type { EventsService } from './events/serve.ts';
import { authorise, execute, invoke } from './invoke.ts';
import { allowedHostsOf, localSurfaceRefusal } from './localSurface.ts';
import { createLogger } from './log.ts';
import type { McpRoutes } from './mcp/onDemand.ts';
import type { MetricsService } from './metrics/index.ts';
import { openRecord } from './record.ts';
import { createRegistry, type RateLimits } from './registry.ts';
import { callerRequestId, errorResponse, jsonResponse, newRequestId } from './respond.ts';
import type { FunctionManifest } from './schema/describe.ts';
import { settle } from './settle.ts';
import { manifestRoutes, routerOf } from './workerRoutes.ts';

const FUNCTIONS_PREFIX = '/functions/';

/** What the project's worker.ts hands the framework; a feature is an option, so an unused one is not bundled. */
export interface WorkerOptions {
  /** The functions to serve, `{ name: definition }` (generated/functions.ts lists functions/). */
  functions: Record<string, AnyFunctionDefinition>;
  /**
   * Gives handlers `context.platform`, the client of the call's account (pass `platformFromEnv` from
   * agent-functions/platform). Opt-in, so a project whose functions never call the platform does
   * not bundle its client.
   */
  platform?: PlatformFactory;
  /**
   * The platform accounts this Worker serves (`serveAccounts` of agent-functions/accounts over
   * generated/accounts.ts, from platform.accounts.json): each call acts in the account its url
   * names (docs/platform-contract.md §10). Without it, one account, "default", from
   * PLATFORM_API_KEY and PLATFORM_BASE_URL, and none of the accounts file's resolver is bundled.
   * @example createWorker({ functions, accounts: serveAccounts({ ...accounts, store: readStoredAccount }) })
   */
  accounts?: AccountsService;
  /** Serves `GET /openapi.json` (guarded like the manifest) when given src/openapi.ts's `openApiDocument`. */
  openapi?: (functions: FunctionManifest[], serverUrl: string) => object;
  /**
   * The events endpoints (one per account) and queue consumer: generated/events.ts lists events/
   * and is undefined when it is empty, so a project without events bundles none of it.
   */
  events?: EventsService | undefined;
  /**
   * Serves every function as an MCP tool on `/mcp` (docs/mcp.md), through `mcpOnDemand`, which
   * imports the module on the first MCP request: a Worker that never sees one never evaluates it;
   * leave the option out and none of it is bundled.
   * @example createWorker({ functions, mcp: mcpOnDemand(() => import('agent-functions/mcp')) })
   */
  mcp?: McpRoutes;
  /**
   * Counts the calls of each function that declares `rateLimit` against the FUNCTION_RATE_LIMIT
   * binding (docs/security.md); without it such a definition is refused, and none of it is bundled.
   * @example createWorker({ functions, rateLimits }) // rateLimits from agent-functions/worker
   */
  rateLimits?: RateLimits;
  /**
   * The check every message the framework sends a customer goes through (a deferred call's
   * follow-up): answer false to send nothing, for example to a contact who opted out.
   * @example mayMessage: async (env, { account, contactId }) => !(await isOptedOut(env, account, contactId))
   */
  mayMessage?: MayMessage;
  /**
   * Deduplicated writes and deferred calls (docs/functions.md "In a conversation"); leave it out
   * and neither is bundled: writes and `later` functions then run as plain calls.
   * @example createWorker({ functions, conversations: conversationFeatures })
   */
  conversations?: ConversationFeatures;
  /**
   * The account store's admin endpoint under /accounts (docs/sync-and-accounts.md), which `npm run
   * accounts` uses; leave it out and none of it is bundled.
   * @example createWorker({ functions, accountStore }) // accountStore from agent-functions/accounts
   */
  accountStore?: AccountStoreService;
  /**
   * Figures of every call per account and function in Workers Analytics Engine, alerts on the
   * platform when a client's function fails, evaluated on the Worker's cron trigger, and the
   * records' description versions and span attributes (docs/observability.md); leave it out and
   * none of it is bundled.
   * @example createWorker({ functions, metrics: callMetrics({ accounts }) }) // callMetrics from agent-functions/metrics
   */
  metrics?: MetricsService;
}

/** The Worker's handlers: `fetch`, `queue` when it serves events, `scheduled` (the alerts' cron) with metrics. */
export interface AgentWorker {
  fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response>;
  queue?(batch: MessageBatch<unknown>, env: Env, ctx: ExecutionContext): Promise<void>;
  scheduled?(controller: ScheduledController, env: Env, ctx: ExecutionContext): Promise<void>;
}

/**
 * The Worker serving every function of `options.functions` (docs/platform-contract.md §4) and the manifest,
 * and with `options.events` the events endpoint and its queue consumer (docs/platform-contract.md §7).
 * @example export default createWorker({ functions }) satisfies ExportedHandler<Env>;
 */
export const createWorker = (options: WorkerOptions): AgentWorker => {
  const registry = createRegistry(options.functions, options.conversations?.check, options.rateLimits);
  const served = options.accounts ?? ONE_ACCOUNT;
  const accounts = served.resolver(options.platform);
  // The account of a url without one: the first of the accounts file.
  const firstAccount = served.first;
  const feature = options.conversations;
  const pipeline: Pipeline = {
    registry,
    accounts,
    execute: (fn, setup, source) => execute(fn, setup, source, feature),
    defers: feature !== undefined,
  };
  // Deferred calls' workflow instances run in this same Worker and need its functions. Their work
  // runs plainly (no deduplication, no deferral again): execute skips the feature for deferred work.
  feature?.register({ ...pipeline, mayMessage: options.mayMessage });
  // Every path but those under /functions/, tried in order; the first that matches answers.
  const routes = manifestRoutes(registry, options.openapi);

  // Every path under /functions/: one URL parse, no router (the hot path of every call).
  const serveFunction = async (request: Request, url: URL, env: Env, ctx: ExecutionContext): Promise<Response> => {
    const arrivedAt = Date.now();
    const requestId = newRequestId();
    // The caller's own id is kept beside ours, sanitised, never in its place (a log line leaves it
    // out when there is none).
    const base = { requestId, callerRequestId: callerRequestId(request) };
    // Bound to the function and account once they are known: the invocation line names both.
    let log = createLogger(base);
    // Its one record (src/record.ts): the function once the name is found served, the account once
    // it is resolved; a refusal before either (a 401, a 404, an unknown account) has none.
    const record = openRecord('http', requestId);
    const outcome = await settle(
      () => log,
      arrivedAt,
      record,
      async () => {
        const name = url.pathname.slice(FUNCTIONS_PREFIX.length);
        const { fn, account: named } = await authorise(name, registry, { request, url, env, log }, record);
        log = createLogger({ function: fn.name, account: named ?? firstAccount, ...base });
        // An account seen within the minute answers at once: no await on the common path.
        const found = accounts(env, named, log);
        const { account, platform } = found instanceof Promise ? await found : found;
        record.account = account.name;
        return invoke(
          fn,
          { env, ctx, requestId, log, request, arrivedAt, account, platform, mark: record },
          url,
          feature,
        );
      },
      env,
      ctx,
    );
    return outcome.ok ? jsonResponse(outcome.value, 200, requestId) : errorResponse(outcome.error, requestId);
  };

  // The features' own paths (approvals' pages, the events endpoints, the account store, the metrics'
  // evaluation under dev); events resolve each delivery's account as calls do: one resolver for all.
  const events = options.events?.serve(accounts, firstAccount);
  const metrics = options.metrics?.serve(accounts, registry);
  const opted = [options.conversations, events, options.accountStore, metrics];
  for (const served of opted) routes.push(...(served?.routes ?? []));

  if (options.mcp) routes.push(...options.mcp(pipeline));
  const route = routerOf(routes);

  return {
    fetch: (request: Request, env: Env, ctx: ExecutionContext): Promise<Response> => {
      const url = new URL(request.url);
      // Spelled out, so a production bundle drops the check (src/env.ts).
      if ((globalThis as WithProcess).process?.env.NODE_ENV !== 'production' && isDevelopment(env)) {
        // Keyless under dev: only this machine's own programs and pages may use it (docs/security.md).
        const refused = localSurfaceRefusal(
          url.host,
          request.headers.get('origin'),
          allowedHostsOf(env.AGENT_FUNCTIONS_DEV_HOSTS),
          'AGENT_FUNCTIONS_DEV_HOSTS',
        );
        if (refused)
          return Promise.resolve(errorResponse(new FunctionError(403, refused.code, refused.message), newRequestId()));
      }
      return url.pathname.startsWith(FUNCTIONS_PREFIX)
        ? serveFunction(request, url, env, ctx)
        : route(request, url, env, ctx);
    },
    ...(events ? { queue: events.queue } : {}),
    ...(metrics ? { scheduled: metrics.scheduled } : {}),
  };
};
