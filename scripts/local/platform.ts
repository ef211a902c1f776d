// The local platform of `npm run dev`: its own emulator on a port that is really free (never an
// unknown program that happens to hold the default port), holding one account per account of
// platform.accounts.json (scripts/dev/accounts.ts). What a project's functions need in it (a
// contact to write to, say) its dev.config.ts creates.
import { join } from 'node:path';
import { createPlatformClient } from 'agent-functions/platform';
import { DEFAULT_PORT, type RunningEmulator, startEmulator } from '../platform/emulator.ts';
import { ACCOUNTS_FILE, type AccountsConfig, loadAccountsConfig } from '../project/accounts.ts';
import { projectRoot } from '../project/paths.ts';
import { type DevAccount, devAccountOptions, devAccountsOf } from './accounts.ts';
import type { DevSetupContext } from './config.ts';

export interface LocalPlatform {
  emulator: RunningEmulator;
  /** The first account's key (the Agency account's): dev syncs there, and functions call the platform with it. */
  agencyKey: string;
  /** Every account of the accounts file, as the local platform holds it (the first first). */
  accounts: DevAccount[];
  /** Set when the default port was taken and another one was chosen. */
  note?: string;
}

/**
 * Starts the emulator on `port`, or, when none was asked for and the default is taken, on a free one,
 * with the accounts of `config` (default: the project's platform.accounts.json).
 * @example const { emulator, accounts } = await startLocalPlatform(undefined)
 */
export const startLocalPlatform = async (
  port: number | undefined,
  defaultPort = DEFAULT_PORT,
  config: AccountsConfig = loadAccountsConfig(join(projectRoot(), ACCOUNTS_FILE)),
): Promise<LocalPlatform> => {
  const accounts = devAccountOptions(config);
  let emulator: RunningEmulator;
  let note: string | undefined;
  try {
    emulator = await startEmulator({ port: port ?? defaultPort, accounts });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    if (port !== undefined) {
      throw new Error(`Port ${port} (--platform-port) is taken. Choose another, or leave the flag out for a free one.`);
    }
    emulator = await startEmulator({ port: 0, accounts });
    note = `port ${defaultPort} is taken by another program, so dev's own local platform listens on ${emulator.url}.`;
  }
  const played = devAccountsOf(config, emulator);
  const first = played[0] as DevAccount;
  return { emulator, agencyKey: first.apiKey, accounts: played, ...(note ? { note } : {}) };
};

/**
 * What dev says of the accounts when the local platform starts: the first's key as always, then each
 * other account's name, key and own address if it has one (local keys only, never a real one).
 * @example accountsLine(local.accounts) // '(Agency account key: local-agency-key); also account "client-acme" (key local-client-acme-account-key)'
 */
export const accountsLine = (accounts: DevAccount[]): string => {
  const [first, ...others] = accounts;
  const rest = others.map((account) => {
    const at = account.baseUrl.includes('/accounts/') ? `, at ${account.baseUrl}` : '';
    return `account "${account.name}" (key ${account.apiKey}${at})`;
  });
  return `(Agency account key: ${first?.apiKey ?? ''})${rest.length > 0 ? `; also ${rest.join(', ')}` : ''}`;
};

/** The accounts as dev.config.ts's setup gets them: a client of each. */
export const setupAccounts = (accounts: DevAccount[]): DevSetupContext['accounts'] =>
  accounts.map((account) => ({
    name: account.name,
    baseUrl: account.baseUrl,
    platform: createPlatformClient({ baseUrl: account.baseUrl, apiKey: account.apiKey }),
  }));
