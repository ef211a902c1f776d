// Edits of the accounts file (platform.accounts.json) that keep it valid by the schema sync reads
// it with (scripts/project/accounts.ts), and keep what else it holds ($schema, key order).
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { type AccountConfig, type AccountsConfig, DEFAULT_CONFIG, parseAccountsConfig } from '../project/accounts.ts';

const read = (path: string): Record<string, unknown> & AccountsConfig =>
  existsSync(path)
    ? (JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown> & AccountsConfig)
    : { accounts: [...DEFAULT_CONFIG.accounts] };

const write = (path: string, content: object, source: string) => {
  parseAccountsConfig(content, source);
  writeFileSync(path, `${JSON.stringify(content, null, 2)}\n`);
};

/** Appends `account` to the file at `path` (created with the default first account when absent). */
export const addAccountToFile = (path: string, account: AccountConfig, source: string): void => {
  const content = read(path);
  write(path, { ...content, accounts: [...content.accounts, account] }, source);
};

/** Removes the account `name` from the file at `path`. */
export const removeAccountFromFile = (path: string, name: string, source: string): void => {
  const content = read(path);
  write(path, { ...content, accounts: content.accounts.filter((account) => account.name !== name) }, source);
};

/**
 * Adds each of `accounts` the file at `path` does not list yet (an import); writes only when that
 * changes the file, and atomically, so a run stopped halfway never leaves half a file.
 */
export const addAccountsToFile = (path: string, accounts: readonly AccountConfig[], source: string): void => {
  const content = read(path);
  const listed = new Set(content.accounts.map((account) => account.name));
  const added = accounts.filter((account) => !listed.has(account.name));
  if (added.length === 0 && existsSync(path)) return;
  const next = { ...content, accounts: [...content.accounts, ...added] };
  parseAccountsConfig(next, source);
  writeFileSync(`${path}.tmp`, `${JSON.stringify(next, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
};
