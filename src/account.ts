// The platform account a call acts in (docs/platform-contract.md §10), as a handler and the
// features see it. How a Worker finds it (the url, the accounts file, the key store) is
// src/accounts/; this is only its shape.
import type { Logger } from './log.ts';
import type { PlatformClient } from './platform/client/client.ts';

/**
 * The settings of one client business (docs/sync-and-accounts.md "Settings per account"): the
 * accounts file's top-level `settings`, with each account's own over them. Declare their types in
 * your project by augmenting this interface.
 * @example declare module 'agent-functions' { interface AccountSettings { timezone?: string } }
 */
// biome-ignore lint/suspicious/noEmptyInterface: augmented by each project
export interface AccountSettings {}

/** The platform account a call acts in (docs/platform-contract.md §10): every call has one. */
export interface CallAccount {
  /** Its name in the accounts file (platform.accounts.json), e.g. "default" or "client-acme". */
  readonly name: string;
  /**
   * True for the first account of the accounts file (the account of the plain urls, and of a Worker
   * without accounts): the only account a Worker-wide variable may stand in for. Another account's
   * team, store or inbox is its own setting or none (docs/security.md).
   */
  readonly first?: boolean;
  /** Its settings, the file's defaults under its own. */
  readonly settings: Readonly<AccountSettings>;
  /**
   * A secret setting of this account (a store's API key): the account's stored secret `name`, else,
   * for the first account only, the Worker variable `name`; undefined when neither is set.
   * @example const key = context.account.secret('SHOP_API_KEY')
   */
  secret(name: string): string | undefined;
}

/** How an account reaches the platform: its client, aborted with `signal`; a 503 naming what is missing, logged on `log`. */
export type AccountPlatform = (signal: AbortSignal, log: Logger) => PlatformClient;
