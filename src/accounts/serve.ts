// The accounts of an accounts file (docs/platform-contract.md §10), which a Worker opts in to with
// createWorker's `accounts` option: each account's entry (generated/accounts.ts) or the key store's
// record, its settings, and its platform client. A Worker without the option bundles none of it.
import type { AccountPlatform, AccountSettings, CallAccount } from '../account.ts';
import { type Env, readVar } from '../env.ts';
import { accountNotConfigured, unauthorized } from '../errors.ts';
import type { Logger } from '../log.ts';
import { accessOf } from './access.ts';
import { addressProblem } from './address.ts';
import {
  type AccountResolver,
  type AccountsOption,
  type AccountsService,
  type PlatformFactory,
  type ResolvedAccount,
  refuseUnknown,
} from './resolve.ts';

/** How long an account resolved without the store is kept per isolate (docs/performance.md). */
const RESOLVED_TTL_MS = 60_000;

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
  const resolve = async (env: Env, name: string, log: Logger): Promise<ResolvedAccount & { until?: number }> => {
    const entry = byName.get(name);
    // The env's key wins; without it (a stored-key account, or a variable not set yet) the store's.
    const envKey = readVar(env, entry?.apiKeyEnv);
    const record = envKey || !option.store ? undefined : await option.store(env, name);
    if (!entry && !record) refuseUnknown(log);
    const apiKey = envKey || record?.apiKey || '';
    const baseUrlEnv = entry?.baseUrlEnv ?? 'PLATFORM_BASE_URL';
    // A stored address the key may not be sent to (not https) is no address: never another one instead.
    const refused = entry?.baseUrl === undefined && record?.baseUrl ? addressProblem(record.baseUrl, env) : undefined;
    const baseUrl = entry?.baseUrl ?? (refused ? '' : record?.baseUrl || readVar(env, baseUrlEnv));
    const keyPlacement = entry?.keyPlacement ?? record?.keyPlacement;
    const secrets = record?.secrets ?? {};
    // A Worker variable stands in for the first account's own secret only: another account's
    // secret is its own or none, never the first account's (docs/security.md).
    const isFirst = name === first;
    const account: CallAccount = {
      name,
      first: isFirst,
      // Stored settings (a client onboarded with its settings) under the bundle's own, over the defaults.
      settings: (record?.settings
        ? Object.freeze({ ...defaults, ...record.settings, ...entry?.settings })
        : (settingsOf.get(name) ?? bare)) as AccountSettings,
      secret: (key) =>
        Object.hasOwn(secrets, key) ? secrets[key] : isFirst ? readVar(env, key) || undefined : undefined,
    };
    const keyName = entry?.apiKeyEnv ?? `the stored key of account "${name}" (npm run accounts -- add ${name})`;
    const addressName = refused ? 'an https address (npm run accounts -- rotate)' : baseUrlEnv;
    const access = accessOf({ baseUrl, apiKey, ...(keyPlacement ? { keyPlacement } : {}) }, addressName, keyName);
    const make: AccountPlatform | undefined =
      platform &&
      ((signal, callLog) => {
        if (!access.ok) throw accountNotConfigured(callLog, name, access.missing);
        return platform(env, signal, access);
      });
    return { account, platform: make, access, ...(record?.expiresAt ? { until: record.expiresAt } : {}) };
  };

  // Resolved accounts, per environment (one per isolate in production) and name, for a minute, and
  // one resolved from a stored record no longer than that record's copy (one cache, which expires
  // when the stored entry does: a rotation or a removal reaches every call within a minute): a
  // call through an account already seen costs a map look-up, with no await; calls that arrive
  // while one is being resolved wait for that one, so the store is asked once. A refusal is not
  // kept (the store keeps its own answer for a minute: readStoredAccount).
  type Kept = { until: number; value?: ResolvedAccount; pending: Promise<ResolvedAccount> };
  const resolved = new WeakMap<Env, Map<string, Kept>>();
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
    if (kept && now < kept.until) return kept.value ?? kept.pending;
    // Bounded: an isolate serving more accounts than this starts over.
    if (byEnv.size >= 4096) byEnv.clear();
    const entry: Kept = {
      until: now + RESOLVED_TTL_MS,
      pending: resolve(env, name, log).then(
        ({ until, ...value }) => {
          if (until !== undefined) entry.until = Math.min(entry.until, until);
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
