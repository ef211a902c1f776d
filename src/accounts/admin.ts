// The account store's admin endpoint, which `npm run accounts` uses (docs/sync-and-accounts.md
// "Onboarding a client"): PUT, GET and DELETE /accounts/<name>, GET /accounts, and a relay
// /accounts/<name>/platform/v1/... through which sync and `secrets check` reach a stored-key
// account's platform API without ever holding its key. Authorised by accountsKey(FUNCTIONS_SECRET).

import { readBody } from '../args.ts';
import { bearerToken } from '../bearerToken.ts';
import type { Env } from '../env.ts';
import { FunctionError } from '../errors.ts';
import { isAccountsKey } from '../keys.ts';
import type { Logger } from '../log.ts';
import { ACCOUNT_NAME } from '../platform/protocol/contract.ts';
import { jsonResponse } from '../respond.ts';
import type { FeatureRoute, RoutedRequest } from '../route.ts';
import { addressProblem } from './address.ts';
import { type ListQuery, listQuerySchema, type StoredList, type StoredSummary, storedInputSchema } from './contract.ts';
import { ACCOUNTS_BODY_LIMIT, relay } from './relay.ts';
import type { StoredAccount } from './resolve.ts';
import {
  forgetStoredAccount,
  hasStoredRecord,
  listStoredAccounts,
  notStored,
  readStoredAccount,
  removeStoredAccount,
  storeProblem,
  unreadable,
  writeStoredAccount,
} from './store.ts';

// A first PUT finds nothing stored: not worth a log line.
const quiet: Logger = { info: () => {}, warn: () => {}, error: () => {} };

const unauthorized = () =>
  new FunctionError(
    401,
    'unauthorized',
    'The account store needs "Authorization: Bearer <accounts key>" (accountsKey(FUNCTIONS_SECRET) from agent-functions/worker; npm run accounts sends it).',
  );

const authorised = async (request: Request, env: Env): Promise<boolean> => {
  const token = bearerToken(request);
  return Boolean(env.FUNCTIONS_SECRET && token && (await isAccountsKey(env.FUNCTIONS_SECRET, token)));
};

/** What GET and PUT answer of one account: names, never values. */
const summary = (name: string, stored: StoredAccount): StoredSummary => ({
  name,
  stored: true,
  updatedAt: stored.updatedAt,
  ...(stored.baseUrl ? { baseUrl: stored.baseUrl } : {}),
  secretNames: Object.keys(stored.secrets).sort(),
  ...(stored.settings ? { settingNames: Object.keys(stored.settings).sort() } : {}),
});

/** `value` as JSON with every object's keys in order, so two equal records give one text. */
const canonical = (value: unknown): string =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? `{${Object.keys(value)
        .sort()
        .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
        .join(',')}}`
    : Array.isArray(value)
      ? `[${value.map(canonical).join(',')}]`
      : JSON.stringify(value);

/** Whether `next` holds what `previous` does (its date aside). */
const sameRecord = (previous: StoredAccount, next: Omit<StoredAccount, 'updatedAt'>): boolean => {
  // When it was written and until when this copy is kept are no part of what is stored.
  const { updatedAt: _, expiresAt: __, ...kept } = previous;
  return canonical(kept) === canonical(next);
};

const put = async (request: Request, env: Env, name: string, requestId: string): Promise<Response> => {
  const text = await readBody(request, ACCOUNTS_BODY_LIMIT, Date.now() + 10_000);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new FunctionError(
      400,
      'malformed_body',
      'The body is not JSON: send { "apiKey": "...", "baseUrl"?, "keyPlacement"?, "secrets"? }.',
    );
  }
  const parsed = storedInputSchema.safeParse(body);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`);
    throw new FunctionError(422, 'invalid_account', `The account record is not valid: ${problems.join('; ')}.`);
  }
  // What the body leaves out keeps its stored value: a rotation sends the key alone, a secret itself.
  forgetStoredAccount(name);
  const previous = await readStoredAccount(env, name, quiet);
  const apiKey = parsed.data.apiKey ?? previous?.apiKey;
  if (!apiKey) {
    throw new FunctionError(
      422,
      'invalid_account',
      `No key is stored for account "${name}" yet: send its apiKey first.`,
    );
  }
  const secrets = { ...previous?.secrets };
  for (const [key, value] of Object.entries(parsed.data.secrets ?? {})) {
    if (value === null) delete secrets[key];
    else secrets[key] = value;
  }
  const baseUrl = parsed.data.baseUrl ?? previous?.baseUrl;
  if (parsed.data.baseUrl !== undefined) {
    const problem = addressProblem(parsed.data.baseUrl, env);
    if (problem)
      throw new FunctionError(422, 'invalid_account', `The account record is not valid: baseUrl: ${problem}`);
  }
  // The stored key goes only where its owner sent it: a new address comes with the key itself
  // (decision 0011: the admin key uses the stored keys, never reads or redirects them).
  if (parsed.data.apiKey === undefined && previous && baseUrl !== previous.baseUrl) {
    throw new FunctionError(
      422,
      'key_required',
      `Changing the address of account "${name}" needs its key in the same request: the stored key is never sent to an address it was not stored with (npm run accounts -- rotate ${name} sends both).`,
    );
  }
  const keyPlacement = parsed.data.keyPlacement ?? previous?.keyPlacement;
  const settings = parsed.data.settings ?? previous?.settings;
  const record = {
    apiKey,
    secrets,
    ...(baseUrl ? { baseUrl } : {}),
    ...(keyPlacement ? { keyPlacement } : {}),
    ...(settings ? { settings } : {}),
  };
  // The same record again (an import run twice, or resumed) writes nothing: `changed` says so.
  if (previous && sameRecord(previous, record))
    return jsonResponse({ ...summary(name, previous), changed: false }, 200, requestId);
  const stored = await writeStoredAccount(env, name, record);
  return jsonResponse({ ...summary(name, stored), changed: true }, 200, requestId);
};

/** One page of the stored accounts' names (src/accounts/contract.ts), or every name without a limit. */
const listPage = async (env: Env, url: URL): Promise<StoredList> => {
  const parsed = listQuerySchema.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) {
    throw new FunctionError(400, 'bad_query', 'GET /accounts takes after=<name>, prefix=<text> and limit=<1..1000>.');
  }
  const query: ListQuery = parsed.data;
  // One more than asked: whether a next page exists, without a second read.
  const found = await listStoredAccounts(env, { ...query, ...(query.limit ? { limit: query.limit + 1 } : {}) });
  const accounts = query.limit ? found.slice(0, query.limit) : found;
  const last = accounts.at(-1);
  return { accounts, ...(query.limit && found.length > query.limit && last ? { next: last.name } : {}) };
};

/** What createWorker's `accountStore` option takes: the route of /accounts and every path under it. */
export interface AccountStoreService {
  routes: readonly FeatureRoute[];
}

/** Answers every request under /accounts. */
const serveAccounts = async (request: RoutedRequest, env: Env): Promise<Response> => {
  const { requestId } = request;
  // Every refusal of the key is the same 401, whatever was wrong with it.
  if (!(await authorised(request, env))) throw unauthorized();
  const problem = storeProblem(env);
  if (problem) throw new FunctionError(503, 'not_configured', problem);
  const url = new URL(request.url);
  const [, , encoded, sub, ...rest] = url.pathname.replace(/\/+$/, '').split('/');
  if (encoded === undefined) {
    if (request.method !== 'GET')
      throw new FunctionError(405, 'method_not_allowed', 'GET /accounts lists the stored accounts.', {
        headers: { Allow: 'GET' },
      });
    return jsonResponse(await listPage(env, url), 200, requestId);
  }
  let name = encoded;
  try {
    name = decodeURIComponent(encoded);
  } catch {
    // A malformed escape is not a name: refused just below.
  }
  if (!ACCOUNT_NAME.test(name)) {
    throw new FunctionError(
      400,
      'bad_account_name',
      `"${name.slice(0, 64)}" is not an account name: a short label such as "client-acme".`,
    );
  }
  if (sub === 'platform') return relay(request, env, name, `/${rest.join('/')}`, url, requestId);
  if (sub !== undefined)
    throw new FunctionError(
      404,
      'not_found',
      'Nothing is served here: /accounts/<name> or /accounts/<name>/platform/v1/...',
    );
  if (request.method === 'PUT') return put(request, env, name, requestId);
  if (request.method === 'GET') {
    const stored = await readStoredAccount(env, name);
    if (!stored) throw (await hasStoredRecord(env, name)) ? unreadable(name) : notStored(name);
    return jsonResponse(summary(name, stored), 200, requestId);
  }
  if (request.method === 'DELETE') {
    const removed = await removeStoredAccount(env, name);
    return jsonResponse({ name, stored: false, removed }, 200, requestId);
  }
  throw new FunctionError(
    405,
    'method_not_allowed',
    'An account is read with GET, stored with PUT and removed with DELETE.',
    {
      headers: { Allow: 'GET, PUT, DELETE' },
    },
  );
};

/**
 * The admin routes of the account store, for createWorker's `accountStore` option.
 * @example createWorker({ functions, accountStore })
 */
export const accountStore: AccountStoreService = { routes: [['/accounts/*', serveAccounts]] };
