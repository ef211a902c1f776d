// What `npm run dev` runs beside the Worker: the local platform with the accounts of
// platform.accounts.json, the project's own stand-ins (dev.config.ts), dev's state for the
// project's other commands (.wrangler/dev.json), and the settings the Worker gets from all of it.
import { randomBytes } from 'node:crypto';
import { createPlatformClient } from 'agent-functions/platform';
import { devAccountsOf, otherAccountOptions } from '../local/accounts.ts';
import { loadDevConfig, runDevSetup } from '../local/config.ts';
import { type LocalPlatform, setupAccounts, startLocalPlatform } from '../local/platform.ts';
import { type DevVars, devVars } from '../local/vars.ts';
import { type AccountsConfig, loadAccountsConfig } from '../project/accounts.ts';
import { clearDevState, writeDevState } from '../project/devState.ts';
import { projectPaths } from '../project/paths.ts';

export interface DevServices {
  platform: LocalPlatform;
  /** The local Worker's settings: its --vars, .dev.vars's secret, the notes and the problems. */
  settings: DevVars;
  /** The secret the registered urls' keys come from: .dev.vars's, or else one of this session only. */
  secret: string;
  /**
   * After the accounts file changed (and passed its checks): the local platform gains each account
   * it lacks, `platform.accounts` becomes the file's accounts (in place: the sync loop and the
   * console hold that array), and the Worker's settings are made again.
   */
  reload(config: AccountsConfig): { settings: DevVars; added: string[]; removed: string[] };
  /**
   * Records `platform.accounts` in dev's state (.wrangler/dev.json), once the Worker serves them
   * all, with the console's url once it is given (`consoleUrl`, when the console listens) and ever after.
   */
  publish(consoleUrl?: string): void;
  /** Stops the stand-ins and the local platform, and forgets dev's state. */
  close(): Promise<void>;
}

/**
 * Starts the local platform (on `platformPort`; undefined: the default, or a free port when it is
 * taken) and the stand-ins of the project at `root`, and records dev's state. On a failure nothing
 * it started is left running, and the error says what failed in one line.
 * @example const services = await startServices(projectRoot(), args.platformPort); await services.close();
 */
export const startServices = async (root: string, platformPort: number | undefined): Promise<DevServices> => {
  const paths = projectPaths(root);
  const platform = await startLocalPlatform(platformPort, undefined, loadAccountsConfig(paths.accounts()));
  let setup: Awaited<ReturnType<typeof runDevSetup>>;
  try {
    setup = await runDevSetup(await loadDevConfig(paths.devConfig), {
      platform: createPlatformClient({ baseUrl: platform.emulator.url, apiKey: platform.agencyKey }),
      platformUrl: platform.emulator.url,
      accounts: setupAccounts(platform.accounts),
    });
  } catch (error) {
    await platform.emulator.close();
    throw error;
  }
  // The console's url, once it listens: every later record of the state keeps it.
  let consoleUrl: string | undefined;
  const publish = (listening?: string) => {
    consoleUrl = listening ?? consoleUrl;
    writeDevState(root, {
      platformUrl: platform.emulator.url,
      accounts: platform.accounts.map(({ name, apiKey, baseUrl }) => ({ name, apiKey, baseUrl })),
      ...(consoleUrl ? { consoleUrl } : {}),
    });
  };
  const varsNow = () =>
    devVars(root, {
      platformUrl: platform.emulator.url,
      platformApiKey: platform.agencyKey,
      accounts: platform.accounts,
      standIns: setup.vars,
    });
  publish();
  const settings = varsNow();
  return {
    platform,
    settings,
    reload: (config) => {
      const before = platform.accounts.map((account) => account.name);
      const [first, ...others] = config.accounts;
      for (const account of others) {
        if (!platform.emulator.accounts.some((seeded) => seeded.name === account.name)) {
          platform.emulator.addAccount(otherAccountOptions(account, first));
        }
      }
      platform.accounts.splice(0, platform.accounts.length, ...devAccountsOf(config, platform.emulator));
      const after = platform.accounts.map((account) => account.name);
      return {
        settings: varsNow(),
        added: after.filter((name) => !before.includes(name)),
        removed: before.filter((name) => !after.includes(name)),
      };
    },
    publish,
    // Without a secret in .dev.vars the Worker serves without a key; the registered urls carry keys of
    // a secret of this session only.
    secret: settings.secret ?? randomBytes(24).toString('base64url'),
    close: async () => {
      clearDevState(root);
      await Promise.allSettled([platform.emulator.close(), setup.stop()]);
    },
  };
};
