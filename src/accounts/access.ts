// What reaching an account's platform takes (its address and key, or which are unset), for the
// features that make their own client: the accounts file's resolver (src/accounts/serve.ts) and the
// events' consumer. Not in the core: a Worker serving one account without events needs none of it.
import { type Env, readVar } from '../env.ts';
import type { Logger } from '../log.ts';
import type { PlatformAccess } from '../platform/client/fromEnv.ts';
import type { AccountAccess, AccountResolver, ResolvedAccount } from './resolve.ts';

/** The access of `baseUrl` and `apiKey`, naming `baseUrlName` and `keyName` when one is empty. */
export const accessOf = (access: PlatformAccess, baseUrlName: string, keyName: string): AccountAccess => {
  const missing = [...(access.baseUrl ? [] : [baseUrlName]), ...(access.apiKey ? [] : [keyName])];
  if (missing.length > 0) return { ok: false, missing };
  return {
    ok: true,
    baseUrl: access.baseUrl,
    apiKey: access.apiKey,
    ...(access.keyPlacement ? { keyPlacement: access.keyPlacement } : {}),
  };
};

/** The access of the one account of a Worker without the accounts option: PLATFORM_BASE_URL and PLATFORM_API_KEY. */
export const defaultAccess = (env: Env): AccountAccess =>
  accessOf(
    { baseUrl: readVar(env, 'PLATFORM_BASE_URL'), apiKey: readVar(env, 'PLATFORM_API_KEY') },
    'PLATFORM_BASE_URL',
    'PLATFORM_API_KEY',
  );

/** A resolved account with its access always known: what the events feature works with. */
export type AccessibleAccount = ResolvedAccount & { access: AccountAccess };

/** An account resolver whose accounts carry their access. */
export type AccessibleResolver = (env: Env, name: string | undefined, log: Logger) => Promise<AccessibleAccount>;

/**
 * `accounts` with each account's access filled in: the default account's (`defaultAccess`) where
 * the resolver leaves it out.
 * @example const accounts = withAccess(resolver); (await accounts(env, undefined, log)).access
 */
export const withAccess =
  (accounts: AccountResolver): AccessibleResolver =>
  async (env, name, log) => {
    const resolved = await accounts(env, name, log);
    return resolved.access ? (resolved as AccessibleAccount) : { ...resolved, access: defaultAccess(env) };
  };
