// Each account's settings checked against the project's own schema: lib/settings.ts declares the
// settings of a client business once, as the zod schema `accountSettings` beside the
// AccountSettings type the handlers read (docs/sync-and-accounts.md "Settings per account"). dev,
// generate, sync and `accounts add` refuse a file whose settings it refuses, naming the account and
// the key, so a misspelled `openingHour` never leaves a client on the default hours.
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type AccountsConfig, accountsFiles, ConfigError, loadAccountsConfig, problemsError } from './accounts.ts';
import { describeIssue, type FileIssue } from './fileProblems.ts';

/** The project's module that declares the settings, and the name of its schema there. */
export const SETTINGS_MODULE = 'lib/settings.ts';
export const SETTINGS_EXPORT = 'accountSettings';

let loads = 0;

/** A zod schema, as much of it as the check uses (the project's zod, not the CLI's). */
export interface SettingsSchema {
  safeParse(value: unknown): { success: boolean; error?: { issues: FileIssue[] } };
  shape?: Record<string, unknown>;
}

/**
 * The project's settings schema: lib/settings.ts's `accountSettings`, or undefined when the project
 * declares none (its settings are then only checked to be plain JSON values).
 * @example const schema = await loadSettingsSchema(projectRoot())
 */
export const loadSettingsSchema = async (root: string): Promise<SettingsSchema | undefined> => {
  const file = join(root, SETTINGS_MODULE);
  if (!existsSync(file)) return undefined;
  let loaded: Record<string, unknown>;
  try {
    // A fresh copy each time: dev checks again after each save. Node strips the types itself.
    loaded = (await import(`${pathToFileURL(file).href}?t=${Date.now()}-${++loads}`)) as Record<string, unknown>;
  } catch (error) {
    throw new ConfigError(`${SETTINGS_MODULE} cannot be loaded: ${(error as Error).message.split('\n')[0]}`);
  }
  const schema = loaded[SETTINGS_EXPORT];
  if (schema === undefined) return undefined;
  if (typeof (schema as SettingsSchema | null)?.safeParse !== 'function') {
    throw new ConfigError(
      `${SETTINGS_MODULE}: ${SETTINGS_EXPORT} must be a zod schema, such as z.strictObject({ ... }).`,
    );
  }
  return schema as SettingsSchema;
};

/** One issue per unknown key, so each is told of the account or the file's settings it comes from. */
const perKey = (issues: readonly FileIssue[]): FileIssue[] =>
  issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys' && issue.keys && issue.path.length === 0
      ? issue.keys.map((key) => ({ ...issue, keys: [key] }))
      : [issue],
  );

/**
 * One line per problem of the accounts' settings against `schema`: each account's own settings over
 * the file's top-level ones, as the Worker merges them. A problem of the top-level settings is named
 * once, not once per account.
 * @example settingsProblems(config, schema) // ['account "client-acme": settings: unknown key "openingHour" (did you mean "openingHours"?)']
 */
export const settingsProblems = (config: AccountsConfig, schema: SettingsSchema | undefined): string[] => {
  if (!schema) return [];
  const known = Object.keys(schema.shape ?? {});
  const lines = new Set<string>();
  for (const account of config.accounts) {
    const parsed = schema.safeParse({ ...config.settings, ...account.settings });
    for (const issue of perKey(parsed.error?.issues ?? [])) {
      const key = String(issue.code === 'unrecognized_keys' ? issue.keys?.[0] : (issue.path[0] ?? ''));
      const own = account.settings !== undefined && Object.hasOwn(account.settings, key);
      const whose =
        own || !config.settings ? `account ${JSON.stringify(account.name)}: settings` : "settings (every account's)";
      for (const line of describeIssue(issue, known)) lines.add(`${whose}: ${line}`);
    }
  }
  return [...lines];
};

/**
 * Checks every accounts file of the project at `root` (platform.accounts*.json), and each account's
 * settings against the project's schema; throws a ConfigError naming the file, the account and the key.
 * @example await checkAccountSettings(projectRoot())
 */
export const checkAccountSettings = async (root: string): Promise<void> => {
  for (const file of accountsFiles(root)) await assertSettings(root, loadAccountsConfig(file), basename(file));
};

/**
 * Throws a ConfigError naming `source` (the accounts file), the account and the key when the settings
 * of `config` do not match the project's schema.
 * @example await assertSettings(root, config, 'platform.accounts.json')
 */
export const assertSettings = async (root: string, config: AccountsConfig, source: string): Promise<void> => {
  const problems = settingsProblems(config, await loadSettingsSchema(root));
  if (problems.length > 0) throw problemsError(source, problems);
};
