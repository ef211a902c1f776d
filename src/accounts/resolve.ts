// Which account a call acts in, and with what (docs/platform-contract.md §10): the accounts file's
// entry (generated/accounts.ts) or the key store's record, its settings, and its platform client.
// The url already proved the name (its key is bound to it, src/keys.ts); a name the Worker does not
// know is a 401 like a wrong key, never the first account.
import type { AccountPlatform, AccountSettings, CallAccount } from '../account.ts';
import type { Env } from '../env.ts';
import { FunctionError, unauthorized } from '../errors.ts';
import type { Logger } from '../log.ts';
import type { PlatformClient } from '../platform/client/client.ts';
import type { PlatformAccess } from '../platform/client/fromEnv.ts';
import type { KeyPlacement } from '../platform/protocol/contract.ts';

/** One account of the accounts file, as `agent-functions generate` writes it: names of variables, never values. */
export interface AccountEntry {
  name: string;
  /** The Worker variable holding its API key; without it (or while it is unset) the key store's. */
  apiKeyEnv?: string | undefined;
  /** Its base address (a white-label tenant)... */
  baseUrl?: string | undefined;
  /** ...or the Worker variable holding it (default PLATFORM_BASE_URL). */
  baseUrlEnv?: string | undefined;
  keyPlacement?: KeyPlacement | undefined;
  /** Its own settings, over the file's defaults. */
  settings?: Record<string, unknown> | undefined;
}

/** An account's record in the key store (src/accounts/store.ts). */
export interface StoredAccount {
  apiKey: string;
  baseUrl?: string | undefined;
  keyPlacement?: KeyPlacement | undefined;
  secrets: Record<string, string>;
  updatedAt: number;
}

/** Makes a platform client (platformFromEnv of agent-functions/platform). */
export type PlatformFactory = (env: Env, signal: AbortSignal, access?: PlatformAccess) => PlatformClient;

/** The accounts a Worker serves: createWorker's `accounts` option (generated/accounts.ts). */
export interface AccountsOption {
  /** The accounts file's accounts, the first first: its urls are the plain ones. */
  list: readonly AccountEntry[];
  /** The file's top-level settings: every account's defaults. */
  settings?: Record<string, unknown> | undefined;
  /** Reads an account's record from the key store (readStoredAccount of agent-functions/accounts, which keeps its answers a minute). */
  store?: ((env: Env, name: string) => Promise<StoredAccount | undefined>) | undefined;
}

/** Without an accounts option: one account, from PLATFORM_API_KEY and PLATFORM_BASE_URL. */
export const DEFAULT_ACCOUNTS: AccountsOption = {
  list: [{ name: 'default', apiKeyEnv: 'PLATFORM_API_KEY', baseUrlEnv: 'PLATFORM_BASE_URL' }],
};

/** A call's account with what its platform client needs. */
export interface ResolvedAccount {
  account: CallAccount;
  platform: AccountPlatform | undefined;
}

/** Finds the account of a call: `name` from its url, undefined for the first account's urls; a 401 for an unknown one. */
export type AccountResolver = (
  env: Env,
  name: string | undefined,
  log: Logger,
) => ResolvedAccount | Promise<ResolvedAccount>;

const notConfigured = (log: Logger, account: string, missing: readonly string[]) => {
  // The log says which account; the model reads what is missing (names of settings, never a value).
  log.error('account_not_configured', {
    account,
    missing: missing.join(', '),
    hint: 'set the variable the accounts file names for this account, or store its key: npm run accounts -- rotate <name>',
  });
  return new FunctionError(
    503,
    'platform_not_configured',
    `This function cannot reach the messaging platform: ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not set on the Worker. Tell the customer you cannot do this right now.`,
  );
};

const readVar = (env: Env, name: string | undefined): string => {
  const value = name ? (env as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value.trim() : '';
};

/** How long a resolved account is kept per isolate: its store is read at most once a minute (docs/performance.md). */
const STORE_TTL_MS = 60_000;

/**
 * The resolver of a Worker's accounts; `platform` is createWorker's platform option.
 * @example const resolve = accountResolver(DEFAULT_ACCOUNTS, platformFromEnv)
 */
export const accountResolver = (option: AccountsOption, platform: PlatformFactory | undefined): AccountResolver => {
  const byName = new Map(option.list.map((entry) => [entry.name, entry]));
  const first = option.list[0]?.name;
  const defaults = option.settings ?? {};
  // Settings merged once per entry; an account only in the store has the defaults.
  const settingsOf = new Map(option.list.map((e) => [e.name, Object.freeze({ ...defaults, ...e.settings })]));
  const bare = Object.freeze({ ...defaults });
  const resolve = async (env: Env, name: string, log: Logger): Promise<ResolvedAccount> => {
    const entry = byName.get(name);
    // The env's key wins; without it (a stored-key account, or a variable not set yet) the store's.
    const envKey = readVar(env, entry?.apiKeyEnv);
    const record = envKey || !option.store ? undefined : await option.store(env, name);
    if (!entry && !record) {
      log.warn('unknown_account', { hint: 'a url names an account this Worker does not serve (removed?)' });
      throw unauthorized();
    }
    const apiKey = envKey || record?.apiKey || '';
    const baseUrlEnv = entry?.baseUrlEnv ?? 'PLATFORM_BASE_URL';
    const baseUrl = entry?.baseUrl ?? (record?.baseUrl || readVar(env, baseUrlEnv));
    const keyPlacement = entry?.keyPlacement ?? record?.keyPlacement;
    const secrets = record?.secrets ?? {};
    const account: CallAccount = {
      name,
      settings: (settingsOf.get(name) ?? bare) as AccountSettings,
      secret: (key) => (Object.hasOwn(secrets, key) ? secrets[key] : readVar(env, key) || undefined),
    };
    const missing = [
      ...(baseUrl ? [] : [baseUrlEnv]),
      ...(apiKey ? [] : [entry?.apiKeyEnv ?? "this account's stored key"]),
    ];
    const access = { baseUrl, apiKey, ...(keyPlacement ? { keyPlacement } : {}) };
    const make: AccountPlatform | undefined =
      platform &&
      ((signal, callLog) => {
        if (missing.length > 0) throw notConfigured(callLog, name, missing);
        return platform(env, signal, access);
      });
    return { account, platform: make };
  };

  // Resolved accounts, per environment (one per isolate in production) and name, for a minute: a
  // call through an account already seen costs a map look-up, with no await; calls that arrive while
  // one is being resolved wait for that one, so the store is asked once. A refusal is not kept (the
  // store keeps its own answer for a minute: readStoredAccount).
  const resolved = new WeakMap<
    Env,
    Map<string, { at: number; value?: ResolvedAccount; pending: Promise<ResolvedAccount> }>
  >();
  return (env, requested, log) => {
    const name = requested ?? first;
    if (name === undefined) throw unauthorized();
    let byEnv = resolved.get(env);
    if (!byEnv) {
      byEnv = new Map();
      resolved.set(env, byEnv);
    }
    const now = Date.now();
    const kept = byEnv.get(name);
    if (kept && now - kept.at < STORE_TTL_MS) return kept.value ?? kept.pending;
    // Bounded: an isolate serving more accounts than this starts over.
    if (byEnv.size >= 4096) byEnv.clear();
    const entry: { at: number; value?: ResolvedAccount; pending: Promise<ResolvedAccount> } = {
      at: now,
      pending: resolve(env, name, log).then(
        (value) => {
          entry.value = value;
          return value;
        },
        (error: unknown) => {
          if (byEnv.get(name) === entry) byEnv.delete(name);
          throw error;
        },
      ),
    };
    byEnv.set(name, entry);
    return entry.pending;
  };
};
