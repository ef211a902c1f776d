// Which accounts one sync run writes to, and with which keys: the committed accounts file
// (platform.accounts.json) names environment variables, never the keys themselves, and an account
// without one is reached through the Worker's relay (its path and key are the framework's,
// src/accounts/contract.ts). Also what the Worker's bundle lists of the file (workerAccounts).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { accountsKey, relayOf, weakSecretProblem } from 'agent-functions/internal';
import { ACCOUNT_NAME, eventsPathOf, FUNCTION_NAME, type KeyPlacement } from 'agent-functions/platform';
import type { AccountEntry } from 'agent-functions/worker';
import { z } from 'zod';
import { DUPLICATE, issueLines } from './fileProblems.ts';

/** The accounts file at the project's root. */
export const ACCOUNTS_FILE = 'platform.accounts.json';

const ENV_NAME = /^[A-Z_][A-Z0-9_]*$/;
const envName = z.string().regex(ENV_NAME, 'must be an environment variable name such as ACME_PLATFORM_API_KEY');
const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) address such as https://app.example.com' });

// Settings reach the Worker's bundle (generated/accounts.ts): plain values only, never a key.
export const settingsSchema = z.record(
  z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a name such as timezone'),
  z.json(),
);

// An account's own alert thresholds (agent-functions/metrics; docs/observability.md "Alert settings").
const alertsSchema = z.strictObject({
  windowMinutes: z.int().min(1).max(60).optional(),
  minCalls: z.int().min(0).optional(),
  errorRate: z.number().min(0).max(1).optional(),
  deferredFailures: z.int().min(0).optional(),
  approvalExpiries: z.int().min(0).optional(),
  off: z.boolean().optional(),
});

const accountSchema = z
  .strictObject({
    name: z.string().regex(ACCOUNT_NAME, 'must be a short label such as "agency" or "client-acme"'),
    apiKeyEnv: envName
      .optional()
      .describe('Environment variable holding this account API key (none: the key is in the account store)'),
    baseUrl: httpUrl.optional().describe('The account base address (white-label tenants have their own)'),
    baseUrlEnv: envName.optional().describe('Environment variable holding the base address instead'),
    keyPlacement: z.enum(['header', 'bearer', 'query']).optional(),
    functions: z
      .array(z.string().regex(FUNCTION_NAME, 'must be a function name from functions/'))
      .optional()
      .describe('Only these functions go to this account (default: all)'),
    settings: settingsSchema.optional().describe("This client business's settings, over the file's top-level settings"),
    alerts: alertsSchema.optional().describe("This client's alert thresholds, over the project's (metrics option)"),
  })
  .refine((account) => !(account.baseUrl && account.baseUrlEnv), {
    message: 'give baseUrl or baseUrlEnv, not both',
  });

const configSchema = z.strictObject({
  $schema: z.string().optional(),
  settings: settingsSchema.optional().describe("Every account's settings unless its own say otherwise"),
  accounts: z
    .array(accountSchema)
    .min(1, 'list at least one account')
    .superRefine((accounts, context) => {
      // The second of two entries of one name is the one named: the first keeps its place (and urls).
      accounts.forEach((account, i) => {
        if (accounts.findIndex((other) => other.name === account.name) < i) {
          context.addIssue({ code: 'custom', path: [i], message: DUPLICATE, input: account });
        }
      });
    }),
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

/**
 * One ConfigError of `problems` (lines of fileProblems.ts), on one line when there is one.
 * @example problemsError('platform.accounts.json', ['account "x": unknown key "y"']).message // 'platform.accounts.json: account "x": unknown key "y"'
 */
export const problemsError = (source: string, problems: string[]): ConfigError =>
  new ConfigError(
    problems.length === 1
      ? `${source}: ${problems[0]}`
      : `${source} is not a valid accounts file:\n${problems.map((line) => `  - ${line}`).join('\n')}`,
  );

/** Validates the parsed content of an accounts file; its problems name each account by its name. */
export const parseAccountsConfig = (content: unknown, source: string): AccountsConfig => {
  const parsed = configSchema.safeParse(content);
  if (parsed.success) return parsed.data;
  const knownAt = (path: readonly PropertyKey[]): string[] =>
    path.length === 0
      ? Object.keys(configSchema.shape)
      : path[0] === 'accounts' && path.length === 2
        ? Object.keys(accountSchema.shape)
        : [];
  throw problemsError(source, issueLines(parsed.error.issues, content, knownAt));
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
 * The accounts with the names of the variables their events endpoint reads (its signing secret is
 * read with the account's key), the first at /events: what `npm run secrets` lists.
 * @example eventsAccountsOf(DEFAULT_CONFIG) // [{ name: 'default', apiKeyEnv: 'PLATFORM_API_KEY', baseUrlEnv: 'PLATFORM_BASE_URL' }]
 */
export const eventsAccountsOf = (config: AccountsConfig): AccountEntry[] =>
  config.accounts.map((account) => ({
    name: account.name,
    ...(account.apiKeyEnv ? { apiKeyEnv: account.apiKeyEnv } : {}),
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
 * Whether the Worker's bundle must list `account`: the first (its urls name no account), and any
 * whose key is a Worker variable or that carries what only the file gives (its settings, its own
 * address). An account kept in the account store with nothing else is resolved from the store, so
 * its entry is left out and the bundle stays the same size at 5 or 5,000 such accounts
 * (docs/sync-and-accounts.md "Hundreds of clients").
 */
const bundled = (account: AccountConfig, first: boolean): boolean =>
  first ||
  Boolean(
    account.apiKeyEnv ||
      account.settings ||
      account.alerts ||
      account.baseUrl ||
      account.baseUrlEnv ||
      account.keyPlacement,
  );

/**
 * Every account the Worker's bundle lists, from every accounts file at `root` (one Worker build
 * serves every environment), as createWorker's `accounts` option takes them: names of variables and
 * plain settings, never a key; an account kept only in the store is left out (`bundled`), unless
 * `all` (npm run dev's build, whose local Worker has no store: each account's local key is a
 * variable). The first account (whose urls carry no account) must be the same in every file.
 * @example workerAccounts('.').list[0] // { name: 'default', apiKeyEnv: 'PLATFORM_API_KEY', baseUrlEnv: 'PLATFORM_BASE_URL' }
 */
export const workerAccounts = (
  root: string,
  { all = false }: { all?: boolean } = {},
): { list: AccountEntry[]; settings?: Record<string, unknown> } => {
  const byName = new Map<string, { entry: AccountEntry; file: string }>();
  let first: { name: string; file: string } | undefined;
  let settings: Record<string, unknown> | undefined;
  for (const file of accountsFiles(root)) {
    const config = loadAccountsConfig(file);
    settings ??= config.settings;
    const head = config.accounts[0]?.name;
    if (first && head !== first.name) {
      throw new ConfigError(
        `${first.file} and ${file} start with different accounts ("${first.name}" and "${head}"): the first account's urls carry no account name, so every environment's file must start with the same account.`,
      );
    }
    first ??= head === undefined ? undefined : { name: head, file };
    for (const [i, account] of config.accounts.entries()) {
      if (!all && !bundled(account, i === 0)) continue;
      const entry: AccountEntry = {
        name: account.name,
        apiKeyEnv: account.apiKeyEnv,
        ...(account.baseUrl ? { baseUrl: account.baseUrl } : { baseUrlEnv: account.baseUrlEnv ?? 'PLATFORM_BASE_URL' }),
        ...(account.keyPlacement ? { keyPlacement: account.keyPlacement } : {}),
        ...(account.settings ? { settings: account.settings } : {}),
        ...(account.alerts ? { alerts: account.alerts } : {}),
      };
      const seen = byName.get(account.name);
      if (!seen) byName.set(account.name, { entry, file });
      else if (JSON.stringify(seen.entry) !== JSON.stringify(entry)) {
        throw new ConfigError(
          `${seen.file} and ${file} disagree on account "${account.name}": the Worker serves every environment's accounts from one build, so give an account the same variable names and settings in every file (their values differ per environment).`,
        );
      }
    }
  }
  return { list: [...byName.values()].map(({ entry }) => entry), ...(settings ? { settings } : {}) };
};

/** An account ready to sync: its address and key read from the environment. */
export interface SyncAccount {
  name: string;
  /** Where its events webhook delivers (eventsPathOf). */
  eventsPath: string;
  /**
   * The account its function urls name (docs/platform-contract.md §10): undefined for the first
   * account of the file, whose urls keep the section-4 form; the name for every other.
   */
  urlAccount: string | undefined;
  baseUrl: string;
  apiKey: string;
  keyPlacement: KeyPlacement | undefined;
  functions: string[] | undefined;
  /** Why this account cannot run (an unset or bad variable of its own); the others still run. */
  problems: string[];
  /** Its key is in the account store: `baseUrl` is then the Worker's relay and `apiKey` the accounts key. */
  stored?: boolean;
}

/**
 * Where the Worker relays a stored-key account's platform requests (src/accounts/contract.ts), and
 * the key that opens it: accountsKey of the framework, never derived again here.
 * @example (await storedAccountRelay('https://fns.example.dev', secret, 'client-acme')).baseUrl // 'https://fns.example.dev/accounts/client-acme/platform'
 */
export const storedAccountRelay = async (origin: string, secret: string, name: string) => ({
  ...relayOf(origin, name),
  apiKey: await accountsKey(secret),
});

/** What sync needs beyond the accounts: where the Worker is and the secret of its keys. */
export interface SyncEnv {
  functionsBaseUrl: string;
  functionsSecret: string;
}

type Env = Record<string, string | undefined>;

const isHttpUrl = (value: string) => httpUrl.safeParse(value).success;

/**
 * The accounts (optionally only those named) with their variables, or one line per missing or bad variable.
 * @example (await resolveSync(DEFAULT_CONFIG, process.env)).problems // ['Missing PLATFORM_API_KEY: ...']
 */
export const resolveSync = async (
  config: AccountsConfig,
  env: Env,
  selected?: readonly string[],
): Promise<{ accounts: SyncAccount[]; sync: SyncEnv; problems: string[]; runProblems: string[] }> => {
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
  // The relay's key, derived once (src/keys.ts) for every stored-key account.
  const relayKey = sync.functionsSecret ? await accountsKey(sync.functionsSecret) : '';
  const accounts = config.accounts
    .map((account, i) => ({ account, first: i === 0 }))
    .filter(({ account }) => !selected || selected.includes(account.name))
    .map(({ account, first }): SyncAccount => {
      const own: string[] = [];
      // No variable: the key is in the account store, reached through the Worker's relay.
      if (!account.apiKeyEnv) {
        return {
          name: account.name,
          eventsPath: eventsPathOf(account.name, first),
          urlAccount: first ? undefined : account.name,
          ...relayOf(sync.functionsBaseUrl, account.name),
          apiKey: relayKey,
          functions: account.functions,
          problems: own,
          stored: true,
        };
      }
      return {
        name: account.name,
        eventsPath: eventsPathOf(account.name, first),
        urlAccount: first ? undefined : account.name,
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
  // Two names for one platform account would take each other's urls over on every run (§10).
  const seen = new Map<string, string>();
  for (const account of accounts) {
    if (!account.apiKey || !account.baseUrl) continue;
    const where = `${account.baseUrl.replace(/\/+$/, '')} ${account.apiKey}`;
    const earlier = seen.get(where);
    if (earlier === undefined) seen.set(where, account.name);
    else {
      const problem = `Account "${account.name}" has the same platform address and API key as "${earlier}": one platform account can serve one account of the file. Give "${account.name}" its own key (its own sub-account), or remove it from the file.`;
      account.problems.push(problem);
      problems.push(problem);
    }
  }
  return { accounts, sync, problems, runProblems };
};

/**
 * Under `npm run dev`, the variable that holds the local key of an account whose key is in the
 * account store when deployed (no apiKeyEnv): dev's build of the registries names it as that
 * account's apiKeyEnv (scripts/project/generated.ts), and dev wires it, so the local Worker needs
 * neither the store nor ACCOUNTS_SECRET. Never in a deployed build.
 * @example localKeyEnv('client-x') // 'AGENT_FUNCTIONS_LOCAL_KEY_CLIENT_X'
 */
export const localKeyEnv = (name: string): string =>
  `AGENT_FUNCTIONS_LOCAL_KEY_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
