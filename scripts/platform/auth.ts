// The spec's three key placements, compared in constant time against every account's key.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { EmulatorError } from './http.ts';
import type { AccountState, EmulatorState } from './state.ts';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Every key the request presents: `X-API-Key`, `Authorization: Bearer`, `?apiKey=`. */
export const presentedKeys = (request: IncomingMessage, url: URL): string[] => {
  const keys: string[] = [];
  const header = request.headers['x-api-key'];
  if (typeof header === 'string' && header) keys.push(header);
  const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  if (bearer) keys.push(bearer);
  const query = url.searchParams.get('apiKey');
  if (query) keys.push(query);
  return keys;
};

/** The account whose key the request carries, or a 401 that says what is wrong. */
export const authenticate = (request: IncomingMessage, url: URL, state: EmulatorState): AccountState => {
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
  const presented = digest(keys[0] ?? '');
  let match: AccountState | undefined;
  // No early exit: every key is compared, so timing says nothing about which one was close.
  for (const account of state.accounts) {
    if (timingSafeEqual(presented, digest(account.apiKey))) match = account;
  }
  if (!match)
    throw new EmulatorError(
      401,
      'invalid_api_key',
      'The API key is not valid: check it, or rotate it through api-keys.',
    );
  return match;
};
