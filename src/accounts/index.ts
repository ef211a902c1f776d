// agent-functions/accounts: the accounts of an accounts file, createWorker's `accounts` option
// (serveAccounts), and the account store (docs/sync-and-accounts.md "Where keys live"): the Durable
// Object worker.ts exports, the admin routes createWorker serves, and the read a call uses.
export { type AccountStoreService, accountStore } from './admin.ts';
export { ACCOUNTS_BODY_LIMIT } from './relay.ts';
export type { AccountsService, StoredAccount } from './resolve.ts';
export { serveAccounts } from './serve.ts';
export {
  accountUnavailable,
  forgetStoredAccount,
  readStoredAccount,
  STORED_ACCOUNT_TTL_MS,
  storeProblem,
} from './store.ts';
export { AccountStore } from './storeObject.ts';
