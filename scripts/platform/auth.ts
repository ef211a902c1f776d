// The spec's three key placements, compared in constant time against every account's key.
import { safeEqual } from 'agent-functions';
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
  const presented = keys[0] ?? '';
  let match: AccountState | undefined;
  // No early exit: every key is compared (the Worker's constant-time safeEqual), so timing says
  // nothing about which one was close.
  for (const account of state.accounts) {
    if (await safeEqual(presented, account.apiKey)) match = account;
  }
  if (!match)
    throw new EmulatorError(
      401,
      'invalid_api_key',
      'The API key is not valid: check it, or rotate it through api-keys.',
    );
  return match;
};
