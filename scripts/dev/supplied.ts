// What `npm run dev` gives the local Worker itself, so `npm run secrets -- check --local` does not
// ask for it in .dev.vars: the local platform's address and key (also as the events account's
// variables), the settings of the project's stand-ins (dev.config.ts, run here as dev runs it) and,
// without a FUNCTIONS_SECRET in .dev.vars, an empty one (every function served without a key).
import { createPlatformClient } from 'agent-functions/platform';
import { projectPaths } from '../project.ts';
import { loadDevConfig, runDevSetup } from './config.ts';
import { startLocalPlatform } from './platform.ts';
import { devVars } from './vars.ts';

/**
 * The names dev sets on the local Worker in the project at `root` (those .dev.vars sets are its own).
 * @example await devSuppliedNames('/repo') // ['FUNCTIONS_SECRET', 'PLATFORM_API_KEY', 'PLATFORM_BASE_URL', ...]
 */
export const devSuppliedNames = async (root: string): Promise<string[]> => {
  const platform = await startLocalPlatform(0);
  try {
    const services = { platformUrl: platform.emulator.url, platformApiKey: platform.agencyKey };
    const setup = await runDevSetup(await loadDevConfig(projectPaths(root).devConfig), {
      platform: createPlatformClient({ baseUrl: services.platformUrl, apiKey: services.platformApiKey }),
      platformUrl: services.platformUrl,
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
