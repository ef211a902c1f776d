// Which account a call acts in, and with what (docs/platform-contract.md §10): its settings and its
// platform client. The url already proved the name (its key is bound to it, src/keys.ts); a name the
// Worker does not know is a 401 like a wrong key, never the first account. Here: the shapes and the
// one account of a Worker without the accounts option; the accounts file's resolver, which a Worker
// opts in to, is src/accounts/serve.ts.
import type { AccountPlatform, AccountSettings, CallAccount } from '../account.ts';
import { type Env, readVar } from '../env.ts';
import { unauthorized } from '../errors.ts';
import { DEFAULT_ACCOUNT } from '../keys.ts';
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
  /** Its own alert thresholds, over the project's (agent-functions/metrics; docs/observability.md "Alert settings"). */
  alerts?: Record<string, number | boolean> | undefined;
}

/** An account's record in the key store (src/accounts/store.ts). */
export interface StoredAccount {
  apiKey: string;
  baseUrl?: string | undefined;
  keyPlacement?: KeyPlacement | undefined;
  secrets: Record<string, string>;
  /** Its settings, when stored with it (an import's settings column): over the file's defaults. */
  settings?: Record<string, unknown> | undefined;
  updatedAt: number;
  /** Until when this copy may be used (readStoredAccount keeps it a minute): what it resolved expires with it. */
  expiresAt?: number | undefined;
}

/**
 * Makes a platform client (platformFromEnv of agent-functions/platform): with `access`, an account's
 * of the accounts option; without, the default account's from PLATFORM_BASE_URL and
 * PLATFORM_API_KEY, which it reads itself (a 503 when one is unset, logged on `log`).
 */
export type PlatformFactory = (env: Env, signal: AbortSignal, access?: PlatformAccess, log?: Logger) => PlatformClient;

/** The accounts a Worker serves: createWorker's `accounts` option (generated/accounts.ts). */
export interface AccountsOption {
  /** The accounts file's accounts, the first first: its urls are the plain ones. */
  list: readonly AccountEntry[];
  /** The file's top-level settings: every account's defaults. */
  settings?: Record<string, unknown> | undefined;
  /** Reads an account's record from the key store (readStoredAccount of agent-functions/accounts, which keeps its answers a minute). */
  store?: ((env: Env, name: string) => Promise<StoredAccount | undefined>) | undefined;
}

/**
 * createWorker's `accounts` option, made by `serveAccounts`: the accounts file's first account, and
 * the resolver over the Worker's platform option. Opt-in, so a Worker serving one account bundles
 * only the small default (`ONE_ACCOUNT`).
 */
export interface AccountsService {
  /** The first account's name: the account of a url that names none. */
  readonly first: string | undefined;
  /** Finds a call's account; `platform` is createWorker's platform option. */
  resolver(platform: PlatformFactory | undefined): AccountResolver;
}

/** What reaching an account's platform takes: its address and key, or what is unset (names, never values). */
export type AccountAccess = ({ ok: true } & PlatformAccess) | { ok: false; missing: string[] };

/** An account as every feature resolves it (calls, events, MCP, deferred work): one entry type. */
export interface ResolvedAccount {
  account: CallAccount;
  /** Its platform client over createWorker's platform option; undefined without that option. */
  platform: AccountPlatform | undefined;
  /**
   * Its address and key, for a feature that makes its own client (the events endpoint's signing
   * secrets); absent for the one account of a Worker without the accounts option, whose are
   * PLATFORM_BASE_URL's and PLATFORM_API_KEY's (src/accounts/access.ts `defaultAccess`).
   */
  access?: AccountAccess | undefined;
}

/** Finds the account of a call: `name` from its url, undefined for the first account's urls; a 401 for an unknown one. */
export type AccountResolver = (
  env: Env,
  name: string | undefined,
  log: Logger,
) => ResolvedAccount | Promise<ResolvedAccount>;

/** The 401 of a url naming an account the Worker does not serve, and the log line that says so. */
export const refuseUnknown = (log: Logger): never => {
  log.warn('unknown_account', { hint: 'a url names an account this Worker does not serve (removed?)' });
  throw unauthorized();
};

const NO_SETTINGS = Object.freeze({}) as AccountSettings;

/**
 * The accounts of a Worker without the accounts option: one account, "default"; a url naming any
 * other account is a 401. Its platform client is the `platform` option's own from PLATFORM_BASE_URL
 * and PLATFORM_API_KEY (called without access, it reads them, and answers the 503 when one is
 * unset), so a Worker without that option bundles nothing of it either.
 */
export const ONE_ACCOUNT: AccountsService = {
  first: DEFAULT_ACCOUNT,
  resolver:
    (platform) =>
    (env, name = DEFAULT_ACCOUNT, log) => {
      if (name !== DEFAULT_ACCOUNT) refuseUnknown(log);
      return {
        account: { name, first: true, settings: NO_SETTINGS, secret: (key) => readVar(env, key) || undefined },
        platform: platform && ((signal, callLog) => platform(env, signal, undefined, callLog)),
      };
    },
};
