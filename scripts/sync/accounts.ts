// Which accounts one sync run writes to, and with which keys: the committed accounts file
// (platform.accounts.json) names environment variables, never the keys themselves; and the
// platform client of one account, counting the write requests it sends (retries included).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EventsAccount } from 'agent-functions/events';
import { weakSecretProblem } from 'agent-functions/internal';
import type { RetryInfo } from 'agent-functions/platform';
import {
  ACCOUNT_NAME,
  createPlatformClient,
  eventsPathOf,
  FUNCTION_NAME,
  type KeyPlacement,
  type PlatformClient,
} from 'agent-functions/platform';
import { z } from 'zod';
import type { FunctionsApi } from './apply.ts';

/** The accounts file at the project's root. */
export const ACCOUNTS_FILE = 'platform.accounts.json';

const ENV_NAME = /^[A-Z_][A-Z0-9_]*$/;
const envName = z.string().regex(ENV_NAME, 'must be an environment variable name such as ACME_PLATFORM_API_KEY');
const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) address such as https://app.example.com' });

const accountSchema = z
  .strictObject({
    name: z.string().regex(ACCOUNT_NAME, 'must be a short label such as "agency" or "client-acme"'),
    apiKeyEnv: envName.describe('Environment variable holding this account API key'),
    baseUrl: httpUrl.optional().describe('The account base address (white-label tenants have their own)'),
    baseUrlEnv: envName.optional().describe('Environment variable holding the base address instead'),
    keyPlacement: z.enum(['header', 'bearer', 'query']).optional(),
    functions: z
      .array(z.string().regex(FUNCTION_NAME, 'must be a function name from functions/'))
      .optional()
      .describe('Only these functions go to this account (default: all)'),
  })
  .refine((account) => !(account.baseUrl && account.baseUrlEnv), {
    message: 'give baseUrl or baseUrlEnv, not both',
  });

const configSchema = z.strictObject({
  $schema: z.string().optional(),
  accounts: z
    .array(accountSchema)
    .min(1, 'list at least one account')
    .refine(
      (accounts) => new Set(accounts.map((a) => a.name)).size === accounts.length,
      'account names must be unique',
    ),
});

export type AccountConfig = z.infer<typeof accountSchema>;
export type AccountsConfig = z.infer<typeof configSchema>;

/** Without an accounts file: the one account of PLATFORM_BASE_URL and PLATFORM_API_KEY. */
export const DEFAULT_CONFIG: AccountsConfig = {
  accounts: [{ name: 'default', apiKeyEnv: 'PLATFORM_API_KEY', baseUrlEnv: 'PLATFORM_BASE_URL' }],
};

/** The accounts file is unreadable or does not match the schema; the message says where. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Validates the parsed content of an accounts file. */
export const parseAccountsConfig = (content: unknown, source: string): AccountsConfig => {
  const parsed = configSchema.safeParse(content);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `  - ${issue.path.join('.') || '(top level)'}: ${issue.message}`);
  throw new ConfigError(`${source} is not a valid accounts file:\n${problems.join('\n')}`);
};

/**
 * Reads an accounts file; a missing file means the default single account.
 * @example loadAccountsConfig('platform.accounts.json').accounts[0].apiKeyEnv // 'PLATFORM_API_KEY'
 */
export const loadAccountsConfig = (path: string, required = false): AccountsConfig => {
  if (!existsSync(path)) {
    if (required) throw new ConfigError(`${path}: no such accounts file.`);
    return DEFAULT_CONFIG;
  }
  let content: unknown;
  try {
    content = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigError(`${path} is not valid JSON: ${(error as Error).message}`);
  }
  return parseAccountsConfig(content, path);
};

/**
 * The accounts as the Worker's events endpoint serves them: each at its path (eventsPathOf: the
 * first at /events), with the names of its variables.
 * @example eventsAccountsOf(DEFAULT_CONFIG) // [{ name: 'default', path: '/events', apiKeyEnv: 'PLATFORM_API_KEY', ... }]
 */
export const eventsAccountsOf = (config: AccountsConfig): EventsAccount[] =>
  config.accounts.map((account, i) => ({
    name: account.name,
    path: eventsPathOf(account.name, i === 0),
    apiKeyEnv: account.apiKeyEnv,
    ...(account.baseUrl ? { baseUrl: account.baseUrl } : { baseUrlEnv: account.baseUrlEnv ?? 'PLATFORM_BASE_URL' }),
    ...(account.keyPlacement ? { keyPlacement: account.keyPlacement } : {}),
  }));

/**
 * The accounts file of an environment: platform.accounts.NAME.json for `env` NAME when it exists,
 * else platform.accounts.json.
 * @example accountsFileFor('.', 'staging') // './platform.accounts.staging.json' when it exists
 */
export const accountsFileFor = (root: string, env: string | undefined): string => {
  const own = env ? join(root, `platform.accounts.${env}.json`) : undefined;
  return own && existsSync(own) ? own : join(root, ACCOUNTS_FILE);
};

/** The accounts files at `root`: platform.accounts.json, then each environment's platform.accounts.NAME.json. */
export const accountsFiles = (root: string): string[] => [
  join(root, ACCOUNTS_FILE),
  ...readdirSync(root)
    .filter((file) => /^platform\.accounts\.[^.]+\.json$/.test(file))
    .sort()
    .map((file) => join(root, file)),
];

/**
 * Every account the Worker serves events for, from every accounts file at `root` (one Worker build
 * serves every environment): one per path. Throws when two files put different accounts or
 * variables at one path, since the Worker could not tell which one's secret verifies it.
 * @example workerEventsAccounts('.') // [{ name: 'default', path: '/events', ... }]
 */
export const workerEventsAccounts = (root: string): EventsAccount[] => {
  const byPath = new Map<string, { account: EventsAccount; file: string }>();
  for (const file of accountsFiles(root)) {
    for (const account of eventsAccountsOf(loadAccountsConfig(file))) {
      const seen = byPath.get(account.path);
      if (!seen) byPath.set(account.path, { account, file });
      else if (JSON.stringify(seen.account) !== JSON.stringify(account)) {
        throw new ConfigError(
          `${seen.file} and ${file} disagree on the account whose webhook delivers to ${account.path} ("${seen.account.name}" and "${account.name}"): the Worker serves every environment's accounts from one build, so give an account the same name and variable names in every file (their values differ per environment), and the same first account.`,
        );
      }
    }
  }
  return [...byPath.values()].map(({ account }) => account);
};

/** An account ready to sync: its address and key read from the environment. */
export interface ResolvedAccount {
  name: string;
  /** Where its events webhook delivers (eventsPathOf). */
  eventsPath: string;
  baseUrl: string;
  apiKey: string;
  keyPlacement: KeyPlacement | undefined;
  functions: string[] | undefined;
  /** Why this account cannot run (an unset or bad variable of its own); the others still run. */
  problems: string[];
}

/** What sync needs beyond the accounts: where the Worker is and the secret of its keys. */
export interface SyncEnv {
  functionsBaseUrl: string;
  functionsSecret: string;
}

type Env = Record<string, string | undefined>;

const isHttpUrl = (value: string) => httpUrl.safeParse(value).success;

/**
 * The accounts (optionally only those named) with their variables, or one line per missing or bad variable.
 * @example resolveSync(DEFAULT_CONFIG, process.env).problems // ['Missing PLATFORM_API_KEY: ...']
 */
export const resolveSync = (
  config: AccountsConfig,
  env: Env,
  selected?: readonly string[],
): { accounts: ResolvedAccount[]; sync: SyncEnv; problems: string[]; runProblems: string[] } => {
  const problems: string[] = [];
  const reported = new Set<string>();
  const read = (name: string, meaning: string, url = false, own?: string[]): string => {
    const value = env[name]?.trim() ?? '';
    const problem = !value
      ? `Missing ${name}: ${meaning}.`
      : url && !isHttpUrl(value)
        ? `Bad ${name}: it is not an http(s) address (${meaning}).`
        : undefined;
    // One line per variable, even when several accounts share it.
    if (problem && !reported.has(name)) problems.push(problem);
    if (problem) own?.push(problem);
    reported.add(name);
    return value;
  };
  const unknown = (selected ?? []).filter((name) => !config.accounts.some((a) => a.name === name));
  for (const name of unknown) {
    problems.push(
      `Unknown account "${name}" in --account: the accounts file lists ${config.accounts.map((a) => a.name).join(', ')}.`,
    );
  }
  const sync = {
    functionsBaseUrl: read(
      'FUNCTIONS_BASE_URL',
      'the public origin of the deployed Worker, e.g. https://agent-functions.example.workers.dev',
      true,
    ),
    functionsSecret: read(
      'FUNCTIONS_SECRET',
      'the secret the Worker derives each function key from (the same as `wrangler secret put FUNCTIONS_SECRET`)',
    ),
  };
  const weak = sync.functionsSecret ? weakSecretProblem(sync.functionsSecret, 'the environment (or .env)') : undefined;
  if (weak) problems.push(weak);
  // Problems of the run as a whole (the Worker's origin and secret, the flags) stop every account.
  const runProblems = [...problems];
  const accounts = config.accounts
    .map((account, i) => ({ account, eventsPath: eventsPathOf(account.name, i === 0) }))
    .filter(({ account }) => !selected || selected.includes(account.name))
    .map(({ account, eventsPath }) => {
      const own: string[] = [];
      return {
        name: account.name,
        eventsPath,
        baseUrl:
          account.baseUrl ??
          read(
            account.baseUrlEnv ?? 'PLATFORM_BASE_URL',
            `the platform base address of account "${account.name}"`,
            true,
            own,
          ),
        apiKey: read(account.apiKeyEnv, `the platform API key of account "${account.name}"`, false, own),
        keyPlacement: account.keyPlacement,
        functions: account.functions,
        problems: own,
      };
    });
  return { accounts, sync, problems, runProblems };
};

/** What sync uses of one account: its functions, its webhooks (the events webhook), and a request count. */
export interface AccountApi {
  api: FunctionsApi;
  webhooks?: PlatformClient['webhooks'];
  requests?: { reads: number; writes: number };
}

/** The custom-functions and webhooks clients of one account and a counter of its HTTP requests. */
export const accountApi = (options: {
  baseUrl: string;
  apiKey: string;
  keyPlacement?: KeyPlacement | undefined;
  fetch?: typeof fetch;
  retry?: { retries?: number; baseDelayMs?: number; maxDelayMs?: number };
  maxResponseBytes?: number;
  onRetry?: (info: RetryInfo) => void;
}): AccountApi => {
  const requests = { reads: 0, writes: 0 };
  const client = createPlatformClient({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    ...(options.keyPlacement ? { keyPlacement: options.keyPlacement } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.retry ? { retry: options.retry } : {}),
    ...(options.maxResponseBytes ? { maxResponseBytes: options.maxResponseBytes } : {}),
    ...(options.onRetry ? { onRetry: options.onRetry } : {}),
    onRequest: (info) => {
      if (info.method === 'GET') requests.reads++;
      else requests.writes++;
    },
  });
  return { api: client.customFunctions, webhooks: client.webhooks, requests };
};
