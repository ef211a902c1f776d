// How `npm run dev` registers the Worker's functions (and the events webhook) on every account of
// its local platform, each with that account's url (docs/platform-contract.md §10: the first
// account's `/functions/<name>?key=…`, every other's `?account=<name>&key=…`), through sync itself;
// and whether each account still holds what the Worker serves.
import { createPlatformClient } from 'agent-functions/platform';
import type { DevAccount } from '../local/accounts.ts';
import type { AccountsConfig } from '../project/accounts.ts';
import { desiredFunctions, type ServedFunction, selectFunctions } from '../project/manifest.ts';
import { runSync, type SyncRun } from '../sync/run.ts';
import { driftLines } from './drift.ts';

export interface RegisterOptions {
  accounts: DevAccount[];
  /** The local Worker's origin and the secret its keys come from. */
  origin: string;
  secret: string;
  served: ServedFunction[];
  /** What the run's first line says it syncs to (default: the environment). */
  heading?: string;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** The event types to subscribe each account's webhook to (default: the files in events/). */
  eventTypes?: string[];
  /** The project (default: this one). */
  root?: string;
}

// Sync reads each account's key and address from variables: these, set for the run only.
const keyVar = (index: number) => `DEV_ACCOUNT_${index}_API_KEY`;
const urlVar = (index: number) => `DEV_ACCOUNT_${index}_BASE_URL`;

/**
 * Syncs `served` to every account (with --prune: a function gone from functions/ goes from each).
 * @example await registerOnAccounts({ accounts: local.accounts, origin, secret, served, stdout, stderr })
 */
export const registerOnAccounts = (options: RegisterOptions): Promise<SyncRun> => {
  const config: AccountsConfig = {
    accounts: options.accounts.map((account, index) => ({
      name: account.name,
      apiKeyEnv: keyVar(index),
      baseUrlEnv: urlVar(index),
      ...(account.functions ? { functions: account.functions } : {}),
    })),
  };
  const env = Object.fromEntries(
    options.accounts.flatMap((account, index) => [
      [keyVar(index), account.apiKey],
      [urlVar(index), account.baseUrl],
    ]),
  );
  return runSync(['--prune'], {
    env: { ...env, FUNCTIONS_BASE_URL: options.origin, FUNCTIONS_SECRET: options.secret },
    config,
    ...(options.heading ? { heading: options.heading } : {}),
    stdout: options.stdout,
    stderr: options.stderr,
    ...(options.root ? { root: options.root } : {}),
    ...(options.eventTypes ? { eventTypes: options.eventTypes } : {}),
    readManifest: async () => options.served,
    // Its development-mode Worker serves the manifest to anyone: no key to check.
    fetchWorker: false,
    // The console shows each function's findings; a draft still gets registered locally.
    lint: false,
    roundDelayMs: 200,
  });
};

/**
 * One line per difference between what each account holds and what the Worker serves (the
 * account named when there are several).
 * @example await accountsDrift(local.accounts, served, origin, secret) // ['[client-acme] the local platform lacks book, which the Worker serves']
 */
export const accountsDrift = async (
  accounts: DevAccount[],
  served: ServedFunction[],
  origin: string,
  secret: string,
): Promise<string[]> => {
  const lines = await Promise.all(
    accounts.map(async (account) => {
      const urlAccount = account.first ? undefined : account.name;
      const desired = selectFunctions(await desiredFunctions(served, origin, secret, urlAccount), account.functions);
      const remote = await createPlatformClient({
        baseUrl: account.baseUrl,
        apiKey: account.apiKey,
      }).customFunctions.list();
      return driftLines(desired, remote, origin, urlAccount).map((line) =>
        accounts.length > 1 ? `[${account.name}] ${line}` : line,
      );
    }),
  );
  return lines.flat();
};
