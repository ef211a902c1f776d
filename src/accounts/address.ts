// Where a stored account's key may be sent (docs/security.md "Stored accounts' addresses"): an
// https address, or under npm run dev this machine over http, where the local platform answers.
// The admin endpoint refuses any other when it is stored; the resolver and the relay, when it is used.
import { type Env, isDevelopment } from '../env.ts';

const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/**
 * Why `url` cannot be an account's platform address, or undefined: https only, but for this
 * machine (localhost, 127.0.0.0/8, [::1]) under npm run dev, where the local platform answers.
 */
export const addressProblem = (url: string, env: Env): string | undefined => {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'not an address.';
  }
  if (parsed.username || parsed.password) return 'an address must not carry a user name or password.';
  if (parsed.protocol === 'https:') return undefined;
  if (parsed.protocol === 'http:' && LOOPBACK.test(parsed.hostname) && isDevelopment(env)) return undefined;
  return "an account's platform address must be https (http only for this machine under npm run dev).";
};
