// The accounts `npm run dev` plays on its local platform: one per account of platform.accounts.json,
// with that account's name and a local key of its own (docs/local-development.md "Several
// accounts"). The first is the local platform's Agency account (its well-known key, so `npm run
// platform -- call --account agency` keeps working); an account whose address the file sets apart
// from the first's (a white-label tenant's base url, or a variable of its own) gets its own local
// address, the others share the first's and are told apart by key.

import { type AccountOptions, accountPath, DEV_ACCOUNT, PLANS, type SeededAccount } from '../platform/state.ts';
import type { AccountConfig, AccountsConfig } from '../project/accounts.ts';

/** One account of the accounts file as dev plays it locally. */
export interface DevAccount {
  name: string;
  /** The accounts file's first account: its urls keep the form without `?account=` (docs/platform-contract.md §10). */
  first: boolean;
  /** Its local key (never a real one). */
  apiKey: string;
  /** Its local base url: the local platform's, or its own address there. */
  baseUrl: string;
  /** The variable the Worker reads its key from (none: the account store's), and its base url's, as the accounts file names them. */
  apiKeyEnv: string | undefined;
  baseUrlEnv: string | undefined;
  /** A base url the file gives literally: the local Worker reads that one, not the local platform. */
  fileBaseUrl: string | undefined;
  /** Only these functions go to the account (the file's `functions`). */
  functions: string[] | undefined;
}

/** The local key of a non-first account of the accounts file. */
export const devAccountKey = (name: string): string => `local-${name}-account-key`;

const addressOf = (account: AccountConfig | undefined): string =>
  account?.baseUrl ?? `$${account?.baseUrlEnv ?? 'PLATFORM_BASE_URL'}`;

/** The local platform's account for `account`, a non-first account of the file whose first is `first`. */
export const otherAccountOptions = (account: AccountConfig, first: AccountConfig | undefined): AccountOptions => ({
  plan: 'business',
  name: account.name,
  apiKey: devAccountKey(account.name),
  ...(addressOf(account) === addressOf(first) ? {} : { basePath: accountPath(account.name) }),
});

/**
 * The local platform's accounts for `config`: one per plan (the first account of the file is the
 * Agency one, named after it), then every other account of the file.
 * @example devAccountOptions({ accounts: [{ name: 'agency', apiKeyEnv: 'PLATFORM_API_KEY' }, acme] })
 */
export const devAccountOptions = (config: AccountsConfig): AccountOptions[] => {
  const [first, ...others] = config.accounts;
  return [
    ...PLANS.map((plan): AccountOptions => (plan === DEV_ACCOUNT && first ? { plan, name: first.name } : { plan })),
    ...others.map((account) => otherAccountOptions(account, first)),
  ];
};

/**
 * The accounts of `config` on the running local platform, in the file's order.
 * @example devAccountsOf(config, emulator)[1] // { name: 'client-acme', apiKey: 'local-client-acme-account-key', baseUrl: 'http://127.0.0.1:8788/accounts/client-acme', ... }
 */
export const devAccountsOf = (
  config: AccountsConfig,
  emulator: { url: string; accounts: SeededAccount[] },
): DevAccount[] =>
  config.accounts.map((account, index) => {
    const seeded = emulator.accounts.find((candidate) =>
      index === 0 ? candidate.plan === DEV_ACCOUNT : candidate.name === account.name,
    );
    if (!seeded) throw new Error(`The local platform has no account "${account.name}".`);
    return {
      name: account.name,
      first: index === 0,
      apiKey: seeded.apiKey,
      baseUrl: `${emulator.url}${seeded.basePath ?? ''}`,
      apiKeyEnv: account.apiKeyEnv,
      baseUrlEnv: account.baseUrl ? undefined : (account.baseUrlEnv ?? 'PLATFORM_BASE_URL'),
      fileBaseUrl: account.baseUrl,
      functions: account.functions,
    };
  });
