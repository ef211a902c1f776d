// platform.accounts.json (and each environment's platform.accounts.NAME.json) while `npm run dev`
// runs: checked on every save, as generate, sync and `accounts add` check it, with one line naming
// the account and the key of each problem; a bad file leaves the last good accounts serving (dev's
// build keeps their registries: scripts/project/generated.ts). A good one is taken at once: the
// local platform gains each new account and its key, the Worker restarts with their settings, and
// every account is synced (docs/local-development.md "Several accounts").
import { basename, join } from 'node:path';
import { type FSWatcher, watch } from 'chokidar';
import {
  ACCOUNTS_FILE,
  type AccountsConfig,
  ConfigError,
  loadAccountsConfig,
  workerAccounts,
} from '../project/accounts.ts';
import { checkAccountSettings } from '../project/settingsSchema.ts';
import { type Debounced, debounced } from './debounced.ts';
import type { DevServices } from './services.ts';

/** An accounts file at the project's root: platform.accounts.json or platform.accounts.NAME.json. */
const ACCOUNTS_FILE_NAME = /^platform\.accounts(\.[^.]+)?\.json$/;

/**
 * The accounts dev plays, once every accounts file at `root` passes the checks of a build (the
 * files agree, each account's settings match lib/settings.ts); throws a ConfigError whose message
 * names the file by its name, never the machine's path.
 * @example const config = await checkedAccounts(projectRoot())
 */
export const checkedAccounts = async (root: string): Promise<AccountsConfig> => {
  try {
    const config = loadAccountsConfig(join(root, ACCOUNTS_FILE));
    workerAccounts(root);
    await checkAccountSettings(root);
    return config;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    throw new ConfigError(error.message.replaceAll(`${root}/`, ''));
  }
};

/**
 * Calls `onChange` on every save of an accounts file at `root` (also one created or deleted).
 * @example const watcher = watchAccountsFiles(root, () => void reload(), warn);
 */
export const watchAccountsFiles = (root: string, onChange: () => void, warn: (text: string) => void): FSWatcher => {
  const watcher = watch(root, {
    ignoreInitial: true,
    depth: 0,
    ignored: (path, stats) =>
      path !== root && (stats?.isDirectory() === true || !ACCOUNTS_FILE_NAME.test(basename(path))),
  });
  watcher.on('all', (_event, path) => {
    if (ACCOUNTS_FILE_NAME.test(basename(path))) onChange();
  });
  watcher.on('error', (error) => warn(`watching ${ACCOUNTS_FILE}: ${(error as Error).message}`));
  return watcher;
};

export interface AccountsReloadOptions {
  root: string;
  services: DevServices;
  /** Restarts the Worker with these --var settings (its build writes the registries of the new file). */
  restartWorker: (vars: Record<string, string>) => Promise<void>;
  /** Resolves once the (restarted) Worker answers, false when it does not in time. */
  workerAnswers: () => Promise<boolean>;
  /** Syncs what the Worker serves to every account, the new ones too. */
  sync: () => Promise<void>;
  say: (text: string) => void;
  fail: (text: string) => void;
  /** Quiet time after the last save (default 300 ms). */
  debounceMs?: number;
}

const listOf = (names: string[]) => names.map((name) => `"${name}"`).join(', ');

/**
 * The reload of the accounts on a save: a bad file is named in a line and changes nothing; a good
 * one different from the last good is taken.
 * @example const reload = createAccountsReload({ root, services, restartWorker, workerAnswers, sync, say, fail }); watchAccountsFiles(root, () => void reload(), warn);
 */
export const createAccountsReload = (options: AccountsReloadOptions): Debounced => {
  const { root, services, say, fail } = options;
  let lastGood = '';
  const taken = async () => JSON.stringify(await checkedAccounts(root).catch(() => undefined));
  const ready = taken().then((state) => {
    lastGood = state;
  });
  const reload = async () => {
    await ready;
    let config: AccountsConfig;
    try {
      config = await checkedAccounts(root);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      fail(`${error.message} The last good accounts keep serving until it is fixed.`);
      return;
    }
    const state = JSON.stringify(config);
    if (state === lastGood) return;
    lastGood = state;
    const { settings, added, removed } = services.reload(config);
    const changes = [
      ...(added.length > 0 ? [`added ${listOf(added)}`] : []),
      ...(removed.length > 0 ? [`removed ${listOf(removed)}`] : []),
    ];
    say(
      `${ACCOUNTS_FILE} changed${changes.length > 0 ? ` (${changes.join(', ')})` : ''}: restarting the Worker with ${config.accounts.length} account(s)…`,
    );
    for (const problem of settings.problems) fail(problem);
    await options.restartWorker(settings.vars);
    if (!(await options.workerAnswers())) {
      fail('the Worker did not answer within 2 minutes of its restart.');
      return;
    }
    await options.sync();
    // Only now do `npm run platform -- call --account` and `accounts add` (scripts/accounts/local.ts) find them.
    services.publish();
    say(`serving ${config.accounts.length} account(s): ${config.accounts.map((account) => account.name).join(', ')}.`);
  };
  return debounced(reload, options.debounceMs ?? 300, (error) =>
    fail(`after that change of ${ACCOUNTS_FILE}: ${error.message.split('\n')[0]}`),
  );
};
