// The accounts of an accounts file (docs/platform-contract.md §10), which a Worker opts in to with
// createWorker's `accounts` option: each account's entry (generated/accounts.ts) or the key store's
// record, its settings, and its platform client. A Worker without the option bundles none of it.
import type { AccountPlatform, AccountSettings, CallAccount } from '../account.ts';
import { type Env, readVar } from '../env.ts';
import { accountNotConfigured, unauthorized } from '../errors.ts';
import type { Logger } from '../log.ts';
import {
  type AccountResolver,
  type AccountsOption,
  type AccountsService,
  accessOf,
  type PlatformFactory,
  type ResolvedAccount,
  refuseUnknown,
} from './resolve.ts';

/** How long a resolved account is kept per isolate: its store is read at most once a minute (docs/performance.md). */
const STORE_TTL_MS = 60_000;

/**
 * The resolver of a Worker's accounts; `platform` is createWorker's platform option.
 * @example const resolve = accountResolver({ ...accounts, store: readStoredAccount }, platformFromEnv)
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
    if (!entry && !record) refuseUnknown(log);
    const apiKey = envKey || record?.apiKey || '';
    const baseUrlEnv = entry?.baseUrlEnv ?? 'PLATFORM_BASE_URL';
    const baseUrl = entry?.baseUrl ?? (record?.baseUrl || readVar(env, baseUrlEnv));
    const keyPlacement = entry?.keyPlacement ?? record?.keyPlacement;
    const secrets = record?.secrets ?? {};
    const account: CallAccount = {
      name,
      // Stored settings (a client onboarded with its settings) under the bundle's own, over the defaults.
      settings: (record?.settings
        ? Object.freeze({ ...defaults, ...record.settings, ...entry?.settings })
        : (settingsOf.get(name) ?? bare)) as AccountSettings,
      secret: (key) => (Object.hasOwn(secrets, key) ? secrets[key] : readVar(env, key) || undefined),
    };
    const keyName = entry?.apiKeyEnv ?? `the stored key of account "${name}" (npm run accounts -- add ${name})`;
    const access = accessOf({ baseUrl, apiKey, ...(keyPlacement ? { keyPlacement } : {}) }, baseUrlEnv, keyName);
    const make: AccountPlatform | undefined =
      platform &&
      ((signal, callLog) => {
        if (!access.ok) throw accountNotConfigured(callLog, name, access.missing);
        return platform(env, signal, access);
      });
    return { account, platform: make, access };
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

/**
 * The accounts of an accounts file (generated/accounts.ts), with `store` for keys kept in the
 * account store: createWorker's `accounts` option.
 * @example createWorker({ functions, accounts: serveAccounts({ ...accounts, store: readStoredAccount }) })
 */
export const serveAccounts = (option: AccountsOption): AccountsService => ({
  first: option.list[0]?.name,
  resolver: (platform) => accountResolver(option, platform),
});
