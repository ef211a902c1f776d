// The client a function gets as `context.platform`: the call's account's (src/accounts/resolve.ts
// hands its address and key), or, without them (the one account of a Worker without the accounts
// option, or called directly), the one of PLATFORM_BASE_URL and PLATFORM_API_KEY.
import { type Env, readVar } from '../../env.ts';
import { accountNotConfigured } from '../../errors.ts';
import { DEFAULT_ACCOUNT } from '../../keys.ts';
import type { Logger } from '../../log.ts';
import { createPlatformClient, type PlatformClient, type PlatformClientOptions } from './client.ts';

/** How the platform is reached with one account's key: its address, key and key placement. */
export type PlatformAccess = Pick<PlatformClientOptions, 'baseUrl' | 'apiKey' | 'keyPlacement'>;

/**
 * A platform client for `access` (an account's address, key and key placement), else for the
 * default account from PLATFORM_BASE_URL and PLATFORM_API_KEY, aborted with `signal`; a 503 that
 * names the missing setting when either is unset (the model reads the message; with `log`, the
 * author reads which account in the log, as for any account).
 * @example const platform = platformFromEnv(env, signal)
 */
export const platformFromEnv = (
  env: Env,
  signal?: AbortSignal,
  access?: PlatformAccess,
  log?: Logger,
): PlatformClient => {
  if (access) {
    return createPlatformClient({
      baseUrl: access.baseUrl,
      apiKey: access.apiKey,
      ...(access.keyPlacement ? { keyPlacement: access.keyPlacement } : {}),
      ...(signal ? { signal } : {}),
    });
  }
  // Read as every account's settings are (trimmed).
  const baseUrl = readVar(env, 'PLATFORM_BASE_URL');
  const apiKey = readVar(env, 'PLATFORM_API_KEY');
  if (!baseUrl || !apiKey) {
    const missing = [...(baseUrl ? [] : ['PLATFORM_BASE_URL']), ...(apiKey ? [] : ['PLATFORM_API_KEY'])];
    throw accountNotConfigured(log, DEFAULT_ACCOUNT, missing);
  }
  return createPlatformClient({ baseUrl, apiKey, ...(signal ? { signal } : {}) });
};
