/** The bindings the framework reads itself (wrangler.toml vars and `wrangler secret put`). */
export interface FrameworkEnv {
  /** "development" only under `npm run dev`; anything else is production. */
  AGENT_FUNCTIONS_MODE?: string;
  /** Under dev, host names besides this machine's that may reach the Worker, comma-separated (a tunnel; `.suffix` for all under it). */
  AGENT_FUNCTIONS_DEV_HOSTS?: string;
  /** Secret from which every function's invocation key is derived (docs/platform-contract.md §4). */
  FUNCTIONS_SECRET?: string;
  /** OAuth 2.1 clients, grants and tokens of `/mcp` (wrangler.toml; absent = only the static MCP token). */
  OAUTH_KV?: KVNamespace;
  /** The passphrase the owner types on the MCP consent page (wrangler secret put MCP_OWNER_SECRET). */
  MCP_OWNER_SECRET?: string;
  /** Comma-separated browser origins allowed to call `/mcp` besides the Worker's own (a var). */
  MCP_ALLOWED_ORIGINS?: string;
  /** "on": `/mcp` also takes the static token mcpKey(FUNCTIONS_SECRET), for clients that only send a header (a var; off by default). */
  MCP_STATIC_TOKEN?: string;
  /** Counts OAuth client registrations and owner-secret attempts per client address (wrangler.toml [[ratelimits]]). */
  OAUTH_RATE_LIMIT?: RateLimit;
  /** When set, a request carrying the platform's signature headers must verify (src/signed.ts). */
  PLATFORM_SIGNING_SECRET?: string;
  /** "true": every call must be signed with PLATFORM_SIGNING_SECRET (src/signed.ts, docs/security.md). */
  PLATFORM_SIGNATURE_REQUIRED?: string;
  /** The platform account's base address, for functions that call the platform. */
  PLATFORM_BASE_URL?: string;
  /** The platform API key, for functions that call the platform. */
  PLATFORM_API_KEY?: string;
  /** Public origin of the Worker, as sync registers it; the events endpoint finds its webhook by it (default: the request's origin). */
  FUNCTIONS_BASE_URL?: string;
  /** Rate limiter counting calls of functions that set `rateLimit` (wrangler.toml [[ratelimits]]). */
  FUNCTION_RATE_LIMIT?: RateLimit;
  /** Each conversation's writes, so a repeat does not run again (wrangler.toml, class CallLedger; agent-functions/conversations types it). */
  CALL_LEDGER?: DurableObjectNamespace;
  /** The workflow that finishes deferred calls (wrangler.toml [[workflows]], class DeferredCall; agent-functions/conversations types it). */
  DEFERRED_CALLS?: Workflow;
  /** Each stored account's sealed key and secret settings (wrangler.toml, class AccountStore; agent-functions/accounts types it). */
  ACCOUNT_STORE?: DurableObjectNamespace;
  /** Secret from which the account store's encryption key is derived (wrangler secret put ACCOUNTS_SECRET). */
  ACCOUNTS_SECRET?: string;
  /** While rotating ACCOUNTS_SECRET: the previous one, whose records are read and sealed again under the new. */
  ACCOUNTS_SECRET_PREVIOUS?: string;
  /** One data point per call (wrangler.toml [[analytics_engine_datasets]]; the metrics option writes it). */
  CALL_RECORDS?: AnalyticsEngineDataset;
  /** Per-minute figures and incidents of the alert rules (wrangler.toml, class FunctionHealth; agent-functions/metrics types it). */
  FUNCTION_HEALTH?: DurableObjectNamespace;
  /** The platform contact that receives alerts, in the first account (a var; docs/platform-contract.md §11). */
  ALERTS_CONTACT_ID?: string;
  /** The channel of ALERTS_CONTACT_ID (a var; default: the first account's settings, else whatsapp). */
  ALERTS_CHANNEL?: string;
  /** Where a signed copy of every alert is POSTed (Standard Webhooks; a var or a secret). */
  ALERTS_WEBHOOK_URL?: string;
  /** The Standard Webhooks secret of ALERTS_WEBHOOK_URL (wrangler secret put ALERTS_WEBHOOK_SECRET). */
  ALERTS_WEBHOOK_SECRET?: string;
}

/**
 * What the Worker reads from its environment: the project's own bindings, generated from
 * wrangler.toml by `wrangler types` (worker-configuration.d.ts), and the framework's. Each may be
 * unset (a secret not put yet, a binding removed), so code checks before use.
 */
export type Env = Partial<Cloudflare.Env> & FrameworkEnv;

/** `globalThis` as Node or a Worker with nodejs_compat sees it; a Worker without it has no `process`. */
export type WithProcess = typeof globalThis & { process?: { env: Record<string, string | undefined> } };

/**
 * False in a bundle built for deploy, true in every other (`npm test`, `npm run dev`, and the
 * Worker sync and the linter start locally): it chooses between the words that tell a person how
 * to fix a refused definition and the fact alone, which is all a deployed Worker carries
 * (docs/performance.md, the framework's share). Only in a conditional expression: a bundler inlines
 * a constant from another module after it has dropped dead code, so `EXPLAINS ? long : short`
 * keeps one string, but an `if (EXPLAINS)` block stays in the bundle (measured); a development
 * branch spells the test out, as isDevelopment's callers do.
 */
export const EXPLAINS: boolean = (globalThis as WithProcess).process?.env.NODE_ENV !== 'production';

/**
 * True when the Worker runs under `npm run dev` (wrangler dev with the development var); never in a
 * bundle built for production. wrangler replaces `process.env.NODE_ENV` with "production" when it
 * builds for deploy ("development" for wrangler dev), so a deployed Worker always checks keys,
 * whatever its vars say. Call sites spell the same test before calling this, so that a production
 * bundle drops their development branches: a bundler folds an expression, not a call.
 */
export const isDevelopment = (env: Env): boolean =>
  (globalThis as WithProcess).process?.env.NODE_ENV !== 'production' && env.AGENT_FUNCTIONS_MODE === 'development';

/** A Worker variable's value, trimmed (a key pasted with its newline is still the key); empty when it is unset or not text. */
export const readVar = (env: Env, name: string | undefined): string => {
  const value = name ? (env as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value.trim() : '';
};
