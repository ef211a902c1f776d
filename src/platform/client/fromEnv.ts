// The client a function gets as `context.platform`: the call's account's (src/accounts/resolve.ts
// hands its address and key), or, called directly, the one of PLATFORM_BASE_URL and PLATFORM_API_KEY.
import type { Env } from '../../env.ts';
import { FunctionError } from '../../errors.ts';
import { createPlatformClient, type PlatformClient, type PlatformClientOptions } from './client.ts';

/** How the platform is reached with one account's key: its address, key and key placement. */
export type PlatformAccess = Pick<PlatformClientOptions, 'baseUrl' | 'apiKey' | 'keyPlacement'>;

/**
 * A platform client for `access` (an account's address, key and key placement), else from
 * PLATFORM_BASE_URL and PLATFORM_API_KEY, aborted with `signal`; a 503 that names the missing
 * setting when either is unset (the model reads the message, the author the log).
 * @example const platform = platformFromEnv(env, signal)
 */
export const platformFromEnv = (env: Env, signal?: AbortSignal, access?: PlatformAccess): PlatformClient => {
  if (access) {
    return createPlatformClient({
      baseUrl: access.baseUrl,
      apiKey: access.apiKey,
      ...(access.keyPlacement ? { keyPlacement: access.keyPlacement } : {}),
      ...(signal ? { signal } : {}),
    });
  }
  const missing = (['PLATFORM_BASE_URL', 'PLATFORM_API_KEY'] as const).filter((name) => !env[name]);
  if (missing.length > 0 || !env.PLATFORM_BASE_URL || !env.PLATFORM_API_KEY) {
    throw new FunctionError(
      503,
      'platform_not_configured',
      `This function cannot reach the messaging platform: ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not set on the Worker. Tell the customer you cannot do this right now.`,
    );
  }
  return createPlatformClient({
    baseUrl: env.PLATFORM_BASE_URL,
    apiKey: env.PLATFORM_API_KEY,
    ...(signal ? { signal } : {}),
  });
};
