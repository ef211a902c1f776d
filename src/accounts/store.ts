// An account's API key and secret settings from the account store (docs/sync-and-accounts.md
// "Where keys live"): read through the ACCOUNT_STORE Durable Object, opened with ACCOUNTS_SECRET,
// and kept per isolate for at most a minute, so a call reads its account's record at most once a
// minute and a rotation or removal reaches every isolate within one.
import { z } from 'zod';
import type { Env } from '../env.ts';
import { FunctionError } from '../errors.ts';
import { createLogger, type Logger } from '../log.ts';
import type { StoredAccount } from './resolve.ts';
import { seal, unseal } from './seal.ts';
import { type AccountStore, INDEX_NAME } from './storeObject.ts';

/** How long an isolate keeps what it read of one account (found or not). */
export const STORED_ACCOUNT_TTL_MS = 60_000;

const sealedSchema = z.object({
  apiKey: z.string().min(1),
  baseUrl: z.string().optional(),
  keyPlacement: z.enum(['header', 'bearer', 'query']).optional(),
  secrets: z.record(z.string(), z.string()),
  settings: z.record(z.string(), z.json()).optional(),
});

type Cached = { until: number; value: Promise<StoredAccount | undefined> };
const cache = new Map<string, Cached>();
// Bounded: an isolate serving thousands of accounts keeps the most recent ones.
const CACHE_LIMIT = 1000;

/** Why the store cannot be used, naming what to set; undefined when it can. */
export const storeProblem = (env: Env): string | undefined => {
  const missing = [
    ...(env.ACCOUNT_STORE ? [] : ['the ACCOUNT_STORE Durable Object binding (wrangler.toml, class AccountStore)']),
    ...(env.ACCOUNTS_SECRET ? [] : ['the Worker secret ACCOUNTS_SECRET (npx wrangler secret put ACCOUNTS_SECRET)']),
  ];
  return missing.length > 0 ? `The account store needs ${missing.join(' and ')}.` : undefined;
};

const stubOf = (env: Env, name: string) => {
  const namespace = env.ACCOUNT_STORE as DurableObjectNamespace<AccountStore>;
  return namespace.get(namespace.idFromName(name));
};

const load = async (env: Env, name: string, log: Logger): Promise<StoredAccount | undefined> => {
  const problem = storeProblem(env);
  if (problem) {
    log.error('account_store_unavailable', { account: name, problem });
    return undefined;
  }
  // The index first: a name never stored (a stranger's guess on the approval page, a removed
  // client) touches no instance of its own, so none is created for it.
  const record = (await stubOf(env, INDEX_NAME).has(name)) ? await stubOf(env, name).read() : null;
  if (!record) {
    log.warn('account_not_stored', {
      account: name,
      problem: `No key is stored for account "${name}": run npm run accounts -- add ${name} (or set the variable its apiKeyEnv names).`,
    });
    return undefined;
  }
  let plain = await unseal(env.ACCOUNTS_SECRET as string, name, record.blob);
  // While ACCOUNTS_SECRET is being rotated, a record sealed under the previous one still opens, and
  // is sealed again under the new one (docs/security.md "Runbook: ACCOUNTS_SECRET").
  const previous = env.ACCOUNTS_SECRET_PREVIOUS;
  if (plain === undefined && previous) {
    plain = await unseal(previous, name, record.blob);
    if (plain !== undefined) {
      await stubOf(env, name).write({
        blob: await seal(env.ACCOUNTS_SECRET as string, name, plain),
        updatedAt: record.updatedAt,
      });
      log.info('account_store_resealed', { account: name });
    }
  }
  const parsed = plain === undefined ? undefined : sealedSchema.safeParse(JSON.parse(plain));
  if (!parsed?.success) {
    log.error('account_store_unreadable', {
      account: name,
      problem: `The stored record of account "${name}" does not open with this ACCOUNTS_SECRET (it was changed, or the record was not written for this account): store the key again with npm run accounts -- rotate ${name}.`,
    });
    return undefined;
  }
  const { baseUrl, keyPlacement, settings, ...rest } = parsed.data;
  return {
    ...rest,
    ...(baseUrl ? { baseUrl } : {}),
    ...(keyPlacement ? { keyPlacement } : {}),
    ...(settings ? { settings } : {}),
    updatedAt: record.updatedAt,
  };
};

/**
 * The stored key and secret settings of account `name`, read at most once a minute per isolate;
 * undefined (and one log line naming what to do, never a key) when the store is not set up, holds
 * nothing for it, or its record does not open.
 * @example const stored = await readStoredAccount(env, 'client-acme'); stored?.apiKey
 */
export const readStoredAccount = (
  env: Env,
  name: string,
  log: Logger = createLogger({ route: 'accounts' }),
): Promise<StoredAccount | undefined> => {
  const now = Date.now();
  const hit = cache.get(name);
  if (hit && hit.until > now) return hit.value;
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  const until = now + STORED_ACCOUNT_TTL_MS;
  const value = load(env, name, log).then(
    // The copy says when it expires, so a resolver keeping what it resolved forgets it then too.
    (stored) => stored && { ...stored, expiresAt: until },
    (error: unknown) => {
      // A store that did not answer is not an answer: the next call asks again.
      cache.delete(name);
      log.error('account_store_failed', { account: name, problem: String(error) });
      return undefined;
    },
  );
  cache.delete(name);
  cache.set(name, { until, value });
  return value;
};

/** Forgets what this isolate read of `name` (after this isolate wrote it), or of every account. */
export const forgetStoredAccount = (name?: string): void => {
  if (name === undefined) cache.clear();
  else cache.delete(name);
};

/** Seals and stores `account` for `name`, and notes it in the index; the store must be set up (storeProblem). */
export const writeStoredAccount = async (
  env: Env,
  name: string,
  account: Omit<StoredAccount, 'updatedAt'>,
): Promise<StoredAccount> => {
  const updatedAt = Date.now();
  const blob = await seal(env.ACCOUNTS_SECRET as string, name, JSON.stringify(account));
  await stubOf(env, name).write({ blob, updatedAt });
  await stubOf(env, INDEX_NAME).note(name, updatedAt);
  forgetStoredAccount(name);
  return { ...account, updatedAt };
};

/** Removes `name`'s record and its index entry; true when there was a record. */
export const removeStoredAccount = async (env: Env, name: string): Promise<boolean> => {
  const had = await stubOf(env, name).remove();
  await stubOf(env, INDEX_NAME).note(name, null);
  forgetStoredAccount(name);
  return had;
};

/** Whether the store holds a record for `name`, opened or not (a record under another ACCOUNTS_SECRET is still one). */
export const hasStoredRecord = async (env: Env, name: string): Promise<boolean> =>
  (await stubOf(env, name).read()) !== null;

/** The stored accounts' names and when each was written, by name: after `after`, starting with `prefix`, at most `limit`. */
export const listStoredAccounts = (
  env: Env,
  query: { after?: string | undefined; prefix?: string | undefined; limit?: number | undefined } = {},
): Promise<{ name: string; updatedAt: number }[]> => stubOf(env, INDEX_NAME).list(query);

/**
 * The 503 a call answers when its account's key cannot be had (missing, unreadable, revoked): a
 * message the model can act on, naming no key and no setting; the log line names the account.
 * @example if (!stored) throw accountUnavailable()
 */
export const accountUnavailable = (): FunctionError =>
  new FunctionError(
    503,
    'account_unavailable',
    "This business's connection to the messaging platform is not working right now, so this could not be done. Tell the customer you cannot do it at the moment and that the team will follow up; do not retry.",
  );

/** The 404 of an account with no stored record. */
export const notStored = (name: string): FunctionError =>
  new FunctionError(
    404,
    'account_not_stored',
    `No key is stored for account "${name}" (npm run accounts -- add ${name}).`,
  );

/** The 409 of a record that is there but does not open with this ACCOUNTS_SECRET. */
export const unreadable = (name: string): FunctionError =>
  new FunctionError(
    409,
    'account_unreadable',
    `The stored record of account "${name}" does not open with this Worker's ACCOUNTS_SECRET (it was changed): store its key again with npm run accounts -- rotate ${name}.`,
  );
