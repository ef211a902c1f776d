// Benchmark entry: the project Worker as an agency deploys it with its clients' keys in the account
// store: the accounts option over what `agent-functions generate` writes of the accounts file
// (BENCH_STORED_ACCOUNTS, made by bench/src/storedAccounts.ts from a file of 5 or 5,000 clients),
// the store's reader and its admin endpoint. The size rows compare its bundle and start-up at both.
import type { Env } from 'agent-functions';
import { accountStore, readStoredAccount, serveAccounts } from 'agent-functions/accounts';
import { platformFromEnv } from 'agent-functions/platform';
import { type AccountsOption, createWorker } from 'agent-functions/worker';
import { functions } from './projectFunctions.ts';

export { AccountStore } from 'agent-functions/accounts';

declare const BENCH_STORED_ACCOUNTS: AccountsOption;

export default createWorker({
  functions,
  platform: platformFromEnv,
  accounts: serveAccounts({ ...BENCH_STORED_ACCOUNTS, store: readStoredAccount }),
  accountStore,
}) satisfies ExportedHandler<Env>;
