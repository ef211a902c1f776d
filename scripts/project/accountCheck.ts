// `npm run secrets -- check`, per account: is its key there (the variable its apiKeyEnv names, or
// the account store) and does the platform accept it (one authenticated list request: through the
// Worker's relay for a stored key, which never leaves the Worker).
import { createPlatformClient, type KeyPlacement } from 'agent-functions/platform';
import { StoreError, storeClient } from './accountStore.ts';
import { type AccountsConfig, storedAccountRelay } from './accounts.ts';

/** How one account's check ended. */
export interface AccountCheck {
  name: string;
  /** Where its key lives: `variable NAME` or `store`. */
  key: string;
  ok: boolean;
  /** What is wrong and what to do; absent when ok. */
  problem?: string;
}

type Env = Record<string, string | undefined>;

/** Accounts checked at once. */
const CHECK_CONCURRENCY = 8;

/** Lists the account's functions once with the key; a refusal or no answer is the problem. */
const platformAccepts = async (
  options: { baseUrl: string; apiKey: string; keyPlacement?: KeyPlacement | undefined },
  fetchImpl: typeof fetch,
): Promise<string | undefined> => {
  const client = createPlatformClient({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    ...(options.keyPlacement ? { keyPlacement: options.keyPlacement } : {}),
    fetch: fetchImpl,
    retry: { retries: 1, baseDelayMs: 200, maxDelayMs: 1000 },
  });
  try {
    await client.customFunctions.list();
    return undefined;
  } catch (error) {
    const status = (error as { status?: number }).status;
    if (status === 401) return 'the platform refused its key (401): it was revoked or mistyped';
    if (status === 403) return "the platform refused its key (403): the account's plan lacks API access";
    return `the platform did not accept a request with its key: ${(error as Error).message}`;
  }
};

/**
 * Checks every account of `config`: its key present, and accepted by its platform.
 * @example (await checkAccounts(config, process.env)).filter((c) => !c.ok)
 */
export const checkAccounts = async (
  config: AccountsConfig,
  env: Env,
  fetchImpl: typeof fetch = fetch,
): Promise<AccountCheck[]> => {
  const origin = env.FUNCTIONS_BASE_URL?.trim() ?? '';
  const secret = env.FUNCTIONS_SECRET?.trim() ?? '';
  const checkOne = async (account: AccountsConfig['accounts'][number]): Promise<AccountCheck> => {
    if (account.apiKeyEnv) {
      const key = `variable ${account.apiKeyEnv}`;
      const apiKey = env[account.apiKeyEnv]?.trim();
      const baseUrlEnv = account.baseUrlEnv ?? 'PLATFORM_BASE_URL';
      const baseUrl = account.baseUrl ?? env[baseUrlEnv]?.trim();
      if (!apiKey)
        return { name: account.name, key, ok: false, problem: `${account.apiKeyEnv} is not set in this run` };
      if (!baseUrl) return { name: account.name, key, ok: false, problem: `${baseUrlEnv} is not set in this run` };
      const problem = await platformAccepts({ baseUrl, apiKey, keyPlacement: account.keyPlacement }, fetchImpl);
      return problem ? { name: account.name, key, ok: false, problem } : { name: account.name, key, ok: true };
    }
    const key = 'store';
    if (!origin || !secret) {
      return {
        name: account.name,
        key,
        ok: false,
        problem: 'FUNCTIONS_BASE_URL and FUNCTIONS_SECRET are needed to reach the account store',
      };
    }
    try {
      const stored = await storeClient(origin, secret, fetchImpl).get(account.name);
      if (!stored) {
        return {
          name: account.name,
          key,
          ok: false,
          problem: `no key is stored: npm run accounts -- rotate ${account.name}`,
        };
      }
    } catch (error) {
      if (error instanceof StoreError) return { name: account.name, key, ok: false, problem: error.message };
      throw error;
    }
    const problem = await platformAccepts(await storedAccountRelay(origin, secret, account.name), fetchImpl);
    return problem ? { name: account.name, key, ok: false, problem } : { name: account.name, key, ok: true };
  };
  // Each account has its own key and rate limit: a few at once, in the file's order.
  const results: AccountCheck[] = new Array(config.accounts.length);
  let next = 0;
  const worker = async () => {
    while (next < config.accounts.length) {
      const i = next++;
      results[i] = await checkOne(config.accounts[i] as AccountsConfig['accounts'][number]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CHECK_CONCURRENCY, config.accounts.length) }, worker));
  return results;
};
