// The names of the framework's own Env (src/env.ts), as a list the CLI reads: a function may
// declare any of them without the project's Env type naming it. Apart from env.ts, so that the
// Worker's bundle never carries it.
import type { FrameworkEnv } from './env.ts';

// Every name of FrameworkEnv, once: a name added there and not here (or the other way) fails the type check.
const FRAMEWORK_ENV: Record<keyof FrameworkEnv, true> = {
  AGENT_FUNCTIONS_MODE: true,
  AGENT_FUNCTIONS_DEV_HOSTS: true,
  FUNCTIONS_SECRET: true,
  OAUTH_KV: true,
  MCP_OWNER_SECRET: true,
  MCP_ALLOWED_ORIGINS: true,
  MCP_STATIC_TOKEN: true,
  OAUTH_RATE_LIMIT: true,
  PLATFORM_SIGNING_SECRET: true,
  PLATFORM_SIGNATURE_REQUIRED: true,
  PLATFORM_BASE_URL: true,
  PLATFORM_API_KEY: true,
  FUNCTIONS_BASE_URL: true,
  FUNCTION_RATE_LIMIT: true,
  CALL_LEDGER: true,
  DEFERRED_CALLS: true,
  ACCOUNT_STORE: true,
  ACCOUNTS_SECRET: true,
  ACCOUNTS_SECRET_PREVIOUS: true,
  CALL_RECORDS: true,
  FUNCTION_HEALTH: true,
  ALERTS_CONTACT_ID: true,
  ALERTS_CHANNEL: true,
  ALERTS_WEBHOOK_URL: true,
  ALERTS_WEBHOOK_SECRET: true,
};

/**
 * Every name FrameworkEnv declares: a function may declare any of them in `secrets` or `vars`
 * without the project's Env type (worker-configuration.d.ts) naming it (the CLI's check).
 */
export const FRAMEWORK_ENV_NAMES: readonly string[] = Object.keys(FRAMEWORK_ENV);
