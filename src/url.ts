// The registered url of a function (docs/platform-contract.md §4), composed in one place so sync, the dev
// loop and tests cannot disagree on it. Imports only keys.ts, so Node code can use it too.
import { ACCOUNT_QUERY, functionKey } from './keys.ts';

/** `origin` without trailing slashes, so `https://x.dev/` and `https://x.dev` own the same urls. */
export const normalizeOrigin = (origin: string): string => origin.trim().replace(/\/+$/, '');

/**
 * The url the platform calls: origin, the function's path (from its manifest) and its invocation
 * key; for an account other than the first (`account` given), the account too, bound to the key
 * (docs/platform-contract.md §10).
 * @example await functionUrl('https://fns.example.dev', { name: 'lookup_warranty', path: '/functions/lookup_warranty' }, secret)
 * @example await functionUrl(origin, fn, secret, 'client-acme') // …/functions/lookup_warranty?account=client-acme&key=…
 */
export const functionUrl = async (
  origin: string,
  fn: { name: string; path: string },
  secret: string,
  account?: string,
): Promise<string> => {
  const key = await functionKey(secret, fn.name, account);
  const query = account === undefined ? '' : `${ACCOUNT_QUERY}=${encodeURIComponent(account)}&`;
  return `${normalizeOrigin(origin)}${fn.path}?${query}key=${key}`;
};
