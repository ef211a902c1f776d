// The registered url of a function (docs/platform-contract.md §4), composed in one place so sync, the dev
// loop and tests cannot disagree on it. Imports only keys.ts, so Node code can use it too.
import { functionKey } from './keys.ts';

/** `origin` without trailing slashes, so `https://x.dev/` and `https://x.dev` own the same urls. */
export const normalizeOrigin = (origin: string): string => origin.trim().replace(/\/+$/, '');

/**
 * The url the platform calls: origin, the function's path (from its manifest) and its invocation key.
 * @example await functionUrl('https://fns.example.dev', { name: 'lookup_warranty', path: '/functions/lookup_warranty' }, secret)
 */
export const functionUrl = async (
  origin: string,
  fn: { name: string; path: string },
  secret: string,
): Promise<string> => `${normalizeOrigin(origin)}${fn.path}?key=${await functionKey(secret, fn.name)}`;
