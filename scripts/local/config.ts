// What a project tells `agent-functions dev` about its own stand-ins (dev.config.ts at its root):
// servers to start before the Worker, records to put in the local platform, and the settings the
// Worker gets from them. The CLI knows no example: whatever a project's functions need under dev
// lives in that project's file, and goes with it.
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { PlatformClient } from 'agent-functions/platform';

/** What dev hands the project's setup. */
export interface DevSetupContext {
  /** A client of the local platform's Agency account (the one dev syncs to): create contacts and the like. */
  platform: PlatformClient;
  /** The local platform's address (PLATFORM_BASE_URL of the local Worker). */
  platformUrl: string;
  /**
   * Every account of platform.accounts.json on the local platform, the first first (the one
   * `platform` is a client of): seed each client business's own records.
   */
  accounts: Array<{ name: string; baseUrl: string; platform: PlatformClient }>;
}

/** What the setup gives back. */
export interface DevSetup {
  /** Settings of the local Worker (wrangler dev --var), e.g. a stand-in's url and key; .dev.vars wins over them. */
  vars?: Record<string, string>;
  /** Stops what the setup started; dev calls it when it stops. */
  stop?: () => Promise<void> | void;
}

/** A project's dev configuration: dev.config.ts default-exports it. */
export interface DevConfig {
  /** Runs once, after the local platform and before the Worker start. */
  setup?: (context: DevSetupContext) => Promise<DevSetup> | DevSetup;
}

/**
 * Declares a project's dev configuration. An identity helper, for the types.
 * @example
 * export default defineDevConfig({
 *   async setup({ platform }) {
 *     const inbox = await platform.contacts.create({ name: 'Team inbox', phone: '+14155550100', channel: 'whatsapp' });
 *     return { vars: { TEAM_CONTACT_ID: inbox.id } };
 *   },
 * });
 */
export const defineDevConfig = (config: DevConfig): DevConfig => config;

/** dev.config.ts could not be loaded, or its setup failed: one line, the file named. */
export class DevConfigError extends Error {
  override name = 'DevConfigError';
}

/**
 * The project's dev configuration from `file` (dev.config.ts), or an empty one when there is none.
 * @example const config = await loadDevConfig(projectPaths().devConfig)
 */
export const loadDevConfig = async (file: string): Promise<DevConfig> => {
  if (!existsSync(file)) return {};
  let loaded: { default?: unknown };
  try {
    // Node strips the types itself: the file is in the project, not under node_modules.
    loaded = (await import(`${pathToFileURL(file).href}?t=${Date.now()}`)) as { default?: unknown };
  } catch (error) {
    throw new DevConfigError(`dev.config.ts cannot be loaded: ${(error as Error).message.split('\n')[0]}`);
  }
  const config = loaded.default;
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new DevConfigError('dev.config.ts must default-export defineDevConfig({ ... }).');
  }
  const { setup } = config as DevConfig;
  if (setup !== undefined && typeof setup !== 'function') {
    throw new DevConfigError('dev.config.ts: setup must be a function.');
  }
  return config as DevConfig;
};

/**
 * Runs the project's setup: its vars (each a string) and its stop.
 * @example const { vars, stop } = await runDevSetup(config, { platform, platformUrl })
 */
export const runDevSetup = async (
  config: DevConfig,
  context: DevSetupContext,
): Promise<{ vars: Record<string, string>; stop: () => Promise<void> }> => {
  if (!config.setup) return { vars: {}, stop: async () => {} };
  let setup: DevSetup;
  try {
    setup = (await config.setup(context)) ?? {};
  } catch (error) {
    throw new DevConfigError(`dev.config.ts: setup failed: ${(error as Error).message.split('\n')[0]}`);
  }
  const vars = setup.vars ?? {};
  const bad = Object.entries(vars).find(
    ([name, value]) => !/^[A-Z][A-Z0-9_]*$/.test(name) || typeof value !== 'string',
  );
  if (bad) {
    await setup.stop?.();
    throw new DevConfigError(
      `dev.config.ts: setup's vars must map UPPER_CASE names to strings, not ${JSON.stringify(bad[0])}: ${JSON.stringify(bad[1])}.`,
    );
  }
  return { vars, stop: async () => void (await setup.stop?.()) };
};
