// What `npm run secrets` reads and writes through: its environment, streams, and the parts tests
// replace (the Worker's functions, wrangler, the accounts, what dev supplies, the account check).
import type { CommandIo } from '../io.ts';
import type { AccountCheck } from '../project/accountCheck.ts';
import type { AccountsConfig } from '../project/accounts.ts';
import type { ServedFunction } from '../project/manifest.ts';
import type { runWrangler } from '../wrangler.ts';

export interface SecretsIo extends CommandIo {
  /** What the Worker serves (default: start it locally and read its manifest). */
  readFunctions?: () => Promise<Pick<ServedFunction, 'name' | 'secrets' | 'vars'>[]>;
  /** Runs wrangler (default: the project's own). */
  wrangler?: typeof runWrangler;
  /** The event types served (default: the files in events/). */
  eventTypes?: string[];
  /** The accounts (default: the environment's accounts file, as sync reads it). */
  config?: AccountsConfig;
  /** With check --local: the names npm run dev sets itself (default: run the project's dev setup to see). */
  devSupplied?: (root: string) => Promise<string[]>;
  /** With check: each account's key present and accepted by its platform (default: scripts/accounts/check.ts; false skips). */
  checkAccounts?:
    | false
    | ((config: AccountsConfig, env: Record<string, string | undefined>) => Promise<AccountCheck[]>);
}
