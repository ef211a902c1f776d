// The client a function gets as `context.platform`, configured from the Worker's secrets.
import type { Env } from '../../env.ts';
import { FunctionError } from '../../errors.ts';
import { createPlatformClient, type PlatformClient } from './client.ts';

/**
 * A platform client from PLATFORM_BASE_URL and PLATFORM_API_KEY, aborted with `signal`; a 503 that
 * names the missing setting when either is unset (the model reads the message, the author the log).
 * @example const platform = platformFromEnv(env, signal)
 */
export const platformFromEnv = (env: Env, signal?: AbortSignal): PlatformClient => {
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
