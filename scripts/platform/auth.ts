// The spec's three key placements, and the account whose key a request carries.
import { bearerToken } from 'agent-functions/internal';
import { EmulatorError } from './http.ts';
import type { AccountState, EmulatorState } from './state.ts';

/** Every key the request presents: `X-API-Key`, `Authorization: Bearer`, `?apiKey=`. */
export const presentedKeys = (request: Request, url: URL): string[] => {
  const keys: string[] = [];
  const header = request.headers.get('x-api-key');
  if (header) keys.push(header);
  const bearer = bearerToken(request);
  if (bearer) keys.push(bearer);
  const query = url.searchParams.get('apiKey');
  if (query) keys.push(query);
  return keys;
};

const encoder = new TextEncoder();

/** A key's SHA-256, in hex: what the accounts are looked up by. */
const digestOf = async (key: string): Promise<string> =>
  [...new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(key)))]
    .map((byte) => byte.toString(16).padStart(2, '0'))
    .join('');

// The accounts by the digest of their key, built once per set of keys: one digest per request
// whatever the number of accounts (comparing against each of 500 keys cost 130 ms a request). A
// lookup by digest says nothing about how close a wrong key was, as a constant-time compare would not.
const byDigest = new WeakMap<EmulatorState, { keys: string; accounts: Promise<Map<string, AccountState>> }>();

const accountsByDigest = (state: EmulatorState): Promise<Map<string, AccountState>> => {
  const keys = state.accounts.map((account) => account.apiKey).join('\n');
  const cached = byDigest.get(state);
  if (cached?.keys === keys) return cached.accounts;
  const accounts = Promise.all(
    state.accounts.map(async (account) => [await digestOf(account.apiKey), account] as const),
  ).then((entries) => new Map(entries));
  byDigest.set(state, { keys, accounts });
  return accounts;
};

/** The account whose key the request carries, or a 401 that says what is wrong. */
export const authenticate = async (request: Request, url: URL, state: EmulatorState): Promise<AccountState> => {
  const keys = presentedKeys(request, url);
  if (keys.length === 0) {
    throw new EmulatorError(
      401,
      'missing_api_key',
      'No API key: send it as "X-API-Key: <key>", "Authorization: Bearer <key>" or ?apiKey=<key>.',
    );
  }
  if (new Set(keys).size > 1) {
    throw new EmulatorError(401, 'conflicting_api_keys', 'The request carries different API keys; send exactly one.');
  }
  const match = (await accountsByDigest(state)).get(await digestOf(keys[0] ?? ''));
  if (!match)
    throw new EmulatorError(
      401,
      'invalid_api_key',
      'The API key is not valid: check it, or rotate it through api-keys.',
    );
  return match;
};
