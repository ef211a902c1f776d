// `npm run secrets`: the secrets and vars the functions declare (defineFunction `secrets`/`vars`)
// and those the Worker needs itself (FUNCTIONS_SECRET; with events/ files, each account's key and
// base address), checked against a target before deploy and put on it by the deploy workflow.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { weakSecretProblem } from 'agent-functions/internal';
import {
  type AccountsConfig,
  accountsFileFor,
  ConfigError,
  eventsAccountsOf,
  loadAccountsConfig,
} from '../project/accounts.ts';
import { eventTypes } from '../project/generated.ts';
import { readManifest } from '../project/manifest.ts';
import { projectRoot } from '../project/paths.ts';
import { envFlags, environmentOf, readWranglerConfig } from '../wrangler.ts';
import { checkLocal, checkTarget, failWith, putSecrets, type SecretsFlags, type SecretsRun } from './commands.ts';
import {
  accountsSettings,
  eventsSettings,
  GUARDING_SECRETS,
  oauthSettings,
  type Setting,
  settingsOf,
  settingsTable,
} from './settings.ts';

export const HELP = `Usage: npm run secrets -- <command> [options]

The secrets and vars the functions declare (defineFunction's \`secrets\` and \`vars\`), plus the
Worker's own: FUNCTIONS_SECRET, and when events/ has files the key variable (apiKeyEnv) and base
address variable (baseUrlEnv) of each account in the environment's accounts file, with which the
Worker reads each account's webhook signing secret.

Commands:
  list               Print each setting, its kind and the functions that need it (a Markdown table).
  check --local      Check .dev.vars (and wrangler.toml [vars]) before npm run dev: one line per missing
                     one, counting what dev supplies itself (its local platform, dev.config.ts's stand-ins).
  check [--env NAME] Check a deployed Worker before deploy: wrangler.toml [vars] of that environment,
                     the secrets already on its Worker (wrangler secret list), and the values this
                     run could put (see put). One line per missing one; exit 1 when any is. Then
                     each account of the accounts file: its key there (its apiKeyEnv variable in
                     this run, or the Worker's account store) and accepted by its platform (one
                     authenticated list request); one line per account, exit 1 when any fails.
  put [--env NAME]   Put every declared setting whose value this run has (and that is not a
                     wrangler.toml var) on the Worker, in one wrangler secret bulk. Never prints a value.

Options:
  --env NAME         The wrangler.toml environment (for example staging); default production.
  --dev-vars FILE    With check --local: the file to check (default .dev.vars).
  -h, --help         Show this help.

Values come from the environment of this run; in GitHub Actions also from SECRETS_JSON (set to
\${{ toJSON(secrets) }}), so a newly declared secret (or var not in wrangler.toml) needs only a new
secret in the GitHub environment, no edit of the workflow.
`;

import type { SecretsIo } from './io.ts';

export type { SecretsIo };

/** Names of wrangler.toml [vars] and KV bindings of an environment, read as wrangler reads them. */
const tomlNames = async (root: string, env: string | undefined): Promise<{ vars: string[]; kv: string[] }> => {
  if (!existsSync(join(root, 'wrangler.toml'))) return { vars: [], kv: [] };
  const config = readWranglerConfig(root, env);
  return {
    vars: Object.keys(config.vars ?? {}),
    kv: (config.kv_namespaces ?? []).map((namespace: { binding: string }) => namespace.binding),
  };
};

/** Declared values this run has: its environment, then GitHub's toJSON(secrets). */
const valuesOf = (env: SecretsIo['env'], settings: readonly Setting[]): Record<string, string> => {
  const pool: Record<string, unknown> = { ...env };
  if (env.SECRETS_JSON) {
    try {
      Object.assign(pool, JSON.parse(env.SECRETS_JSON) as Record<string, unknown>);
    } catch {
      throw new Error(`SECRETS_JSON is not JSON; set it to \${{ toJSON(secrets) }}.`);
    }
  }
  return Object.fromEntries(
    settings.flatMap((setting) => {
      const value = pool[setting.name];
      return typeof value === 'string' && value.trim() ? [[setting.name, value]] : [];
    }),
  );
};

/** Parsed flags and the command, or the exit code when they end the run (a parse error, --help, an unknown command). */
const parseSecretsArgs = (argv: string[], io: SecretsIo): { values: SecretsFlags; command: string } | number => {
  let parsed: ReturnType<
    typeof parseArgs<{ allowPositionals: true; options: Record<string, { type: 'string' | 'boolean' }> }>
  >;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        env: { type: 'string', short: 'e' },
        local: { type: 'boolean' },
        'dev-vars': { type: 'string' },
      },
    });
  } catch (error) {
    return failWith(io, [`${(error as Error).message.split('. ')[0]}. See npm run secrets -- --help.`]);
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    io.stdout.write(HELP);
    return values.help ? 0 : 1;
  }
  if (!['list', 'check', 'put'].includes(command) || rest.length > 0) {
    return failWith(io, [`Unknown command "${[command, ...rest].join(' ')}". See npm run secrets -- --help.`]);
  }
  return { values: values as SecretsFlags, command };
};

/** Every setting of the target: the functions' declared ones and the framework's own (events, accounts, OAuth). */
const loadSettings = async (
  io: SecretsIo,
  root: string,
  env: string | undefined,
  local: boolean,
): Promise<{ settings: Setting[]; config: AccountsConfig; vars: string[] } | string[]> => {
  const toml = await tomlNames(root, env);
  let framework: Setting[];
  let config: AccountsConfig;
  try {
    config = io.config ?? loadAccountsConfig(accountsFileFor(root, env));
    framework = [
      ...eventsSettings(io.eventTypes ?? eventTypes(join(root, 'events')), eventsAccountsOf(config)),
      ...accountsSettings(config.accounts),
      // Locally /mcp is open, with no consent page: nothing to check there.
      ...(local ? [] : oauthSettings(toml.kv)),
    ];
  } catch (error) {
    if (error instanceof ConfigError) return [error.message];
    throw error;
  }
  const settings = settingsOf(
    await (io.readFunctions ?? (() => readManifest({ secret: randomBytes(24).toString('base64url'), root })))(),
    framework,
  );
  return { settings, config, vars: toml.vars };
};

/** This run's values of the settings, or why they cannot be used (SECRETS_JSON not JSON, a guessable guarding secret). */
const givenValues = (io: SecretsIo, settings: Setting[]): Record<string, string> | string[] => {
  let given: Record<string, string>;
  try {
    given = valuesOf(io.env, settings);
  } catch (error) {
    return [(error as Error).message];
  }
  // A guessable FUNCTIONS_SECRET opens every function, a guessable MCP_OWNER_SECRET approves any client.
  const weak = GUARDING_SECRETS.flatMap((name) => {
    const value = given[name];
    const problem = value === undefined ? undefined : weakSecretProblem(value, 'this run', name);
    return problem ? [problem] : [];
  });
  return weak.length > 0 ? weak : given;
};

/**
 * Runs the command; returns the exit code (1 for anything missing or refused).
 * @example process.exitCode = await runSecrets(['check', '--env', 'staging'], { env: process.env, stdout, stderr })
 */
export const runSecrets = async (argv: string[], io: SecretsIo): Promise<number> => {
  const args = parseSecretsArgs(argv, io);
  if (typeof args === 'number') return args;
  const { values, command } = args;
  let env: string | undefined;
  try {
    env = environmentOf(values.env);
  } catch (error) {
    return failWith(io, [(error as Error).message]);
  }
  const root = io.root ?? projectRoot();
  const loaded = await loadSettings(io, root, env, Boolean(values.local));
  if (Array.isArray(loaded)) return failWith(io, loaded);
  const { settings, config, vars } = loaded;
  if (command === 'list') {
    io.stdout.write(`${settingsTable(settings)}\n`);
    return 0;
  }
  const run: SecretsRun = {
    io,
    root,
    env,
    envArgs: envFlags(env),
    target: env ? `environment "${env}"` : 'production (the top level of wrangler.toml)',
    settings,
    vars,
    config,
  };
  if (command === 'check' && values.local) return checkLocal(run, values['dev-vars']);
  const given = givenValues(io, settings);
  if (Array.isArray(given)) return failWith(io, given);
  return command === 'check' ? checkTarget(run, given) : putSecrets(run, given);
};

/** `agent-functions secrets`: loads .env, then runs the subcommand. */
export const main = (argv: string[]): Promise<number> => {
  const dotenv = join(projectRoot(), '.env');
  if (existsSync(dotenv)) process.loadEnvFile(dotenv);
  return runSecrets(argv, { env: process.env, stdout: process.stdout, stderr: process.stderr });
};
