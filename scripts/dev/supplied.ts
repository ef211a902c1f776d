// What `npm run dev` gives the local Worker itself, so `npm run secrets -- check --local` does not
// ask for it in .dev.vars: the local platform's address and key (also as the events account's
// variables, and every other account's of platform.accounts.json), the settings of the project's stand-ins (dev.config.ts, run here as dev runs it) and,
// without a FUNCTIONS_SECRET in .dev.vars, an empty one (every function served without a key).
import { join } from 'node:path';
import { createPlatformClient } from 'agent-functions/platform';
import { projectPaths } from '../project.ts';
import { ACCOUNTS_FILE, type AccountsConfig, DEFAULT_CONFIG, loadAccountsConfig } from '../sync/accounts.ts';
import { loadDevConfig, runDevSetup } from './config.ts';
import { setupAccounts, startLocalPlatform } from './platform.ts';
import { devVars } from './vars.ts';

/**
 * The names dev sets on the local Worker in the project at `root` (those .dev.vars sets are its own).
 * @example await devSuppliedNames('/repo') // ['FUNCTIONS_SECRET', 'PLATFORM_API_KEY', 'PLATFORM_BASE_URL', ...]
 */
export const devSuppliedNames = async (root: string): Promise<string[]> => {
  let config: AccountsConfig;
  try {
    config = loadAccountsConfig(join(root, ACCOUNTS_FILE));
  } catch {
    // A broken accounts file is said by the check itself.
    config = DEFAULT_CONFIG;
  }
  const platform = await startLocalPlatform(0, undefined, config);
  try {
    const services = {
      platformUrl: platform.emulator.url,
      platformApiKey: platform.agencyKey,
      accounts: platform.accounts,
    };
    const setup = await runDevSetup(await loadDevConfig(projectPaths(root).devConfig), {
      platform: createPlatformClient({ baseUrl: services.platformUrl, apiKey: services.platformApiKey }),
      platformUrl: services.platformUrl,
      accounts: setupAccounts(platform.accounts),
    });
    try {
      const { vars } = devVars(root, { ...services, standIns: setup.vars });
      return Object.keys(vars)
        .filter((name) => name !== 'AGENT_FUNCTIONS_MODE')
        .sort();
    } finally {
      await setup.stop();
    }
  } finally {
    await platform.emulator.close();
  }
};
