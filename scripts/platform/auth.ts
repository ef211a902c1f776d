// The spec's three key placements, compared in constant time against every account's key.
import { EmulatorError } from './http.ts';
import type { AccountState, EmulatorState } from './state.ts';

/** Every key the request presents: `X-API-Key`, `Authorization: Bearer`, `?apiKey=`. */
export const presentedKeys = (request: Request, url: URL): string[] => {
  const keys: string[] = [];
  const header = request.headers.get('x-api-key');
  if (header) keys.push(header);
  const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1];
  if (bearer) keys.push(bearer);
  const query = url.searchParams.get('apiKey');
  if (query) keys.push(query);
  return keys;
};

const digestOf = async (text: string): Promise<Uint8Array> =>
  new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));

const digests = new WeakMap<AccountState, { key: string; digest: Uint8Array }>();
const accountDigest = async (account: AccountState): Promise<Uint8Array> => {
  const digest = await digestOf(account.apiKey);
  digests.set(account, { key: account.apiKey, digest });
  return digest;
};

/** Equal digests, compared in time independent of where they differ. */
const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => {
  let differ = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) differ |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return differ === 0;
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
  const presented = await digestOf(keys[0] ?? '');
  let match: AccountState | undefined;
  // No early exit: every account's key is compared, each as a SHA-256 digest byte by byte without
  // a branch, so timing says nothing about which one was close; one digest per request and one per
  // account key (cached) keeps a local platform of 500 accounts as fast as one of four.
  for (const account of state.accounts) {
    const cached = digests.get(account);
    const digest = cached?.key === account.apiKey ? cached.digest : await accountDigest(account);
    if (sameBytes(presented, digest)) match = account;
  }
  if (!match)
    throw new EmulatorError(
      401,
      'invalid_api_key',
      'The API key is not valid: check it, or rotate it through api-keys.',
    );
  return match;
};
