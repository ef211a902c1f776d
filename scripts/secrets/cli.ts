// `npm run secrets`: the secrets and vars the functions declare (defineFunction `secrets`/`vars`)
// and those the Worker needs itself (FUNCTIONS_SECRET; with events/ files, each account's key and
// base address), checked against a target before deploy and put on it by the deploy workflow.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { weakSecretProblem } from 'agent-functions/internal';
import type { CommandIo } from '../io.ts';
import { devSuppliedNames } from '../local/supplied.ts';
import { type AccountCheck, checkAccounts } from '../project/accountCheck.ts';
import {
  type AccountsConfig,
  accountsFileFor,
  ConfigError,
  eventsAccountsOf,
  loadAccountsConfig,
} from '../project/accounts.ts';
import { eventTypes } from '../project/generated.ts';
import { readManifest, type ServedFunction } from '../project/manifest.ts';
import { projectRoot } from '../project/paths.ts';
import { envFlags, environmentOf, readWranglerConfig, runWrangler, wranglerError } from '../wrangler.ts';
import { devVarsNames, missingLocally } from './local.ts';
import {
  accountsSettings,
  eventsSettings,
  GUARDING_SECRETS,
  missingLines,
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

export interface SecretsIo extends CommandIo {
  /** What the Worker serves (default: start it locally and read its manifest). */
  readFunctions?: () => Promise<Pick<ServedFunction, 'name' | 'secrets' | 'vars'>[]>;
  /** Runs wrangler (default: the project's own). */
  wrangler?: typeof runWrangler;
  /** The event types served (default: the files in events/). */
  eventTypes?: string[];
  /** The accounts (default: the environment's accounts file, as sync reads it). */
  config?: AccountsConfig;
  /** With check --local: the names npm run dev sets itself (default: run the project's dev setup to see). */
  devSupplied?: (root: string) => Promise<string[]>;
  /** With check: each account's key present and accepted by its platform (default: scripts/accounts/check.ts; false skips). */
  checkAccounts?:
    | false
    | ((config: AccountsConfig, env: Record<string, string | undefined>) => Promise<AccountCheck[]>);
}

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

/**
 * Runs the command; returns the exit code (1 for anything missing or refused).
 * @example process.exitCode = await runSecrets(['check', '--env', 'staging'], { env: process.env, stdout, stderr })
 */
export const runSecrets = async (argv: string[], io: SecretsIo): Promise<number> => {
  const fail = (lines: string[]) => {
    for (const line of lines) io.stderr.write(`${line}\n`);
    return 1;
  };
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
    return fail([`${(error as Error).message.split('. ')[0]}. See npm run secrets -- --help.`]);
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    io.stdout.write(HELP);
    return values.help ? 0 : 1;
  }
  if (!['list', 'check', 'put'].includes(command) || rest.length > 0) {
    return fail([`Unknown command "${[command, ...rest].join(' ')}". See npm run secrets -- --help.`]);
  }
  let env: string | undefined;
  try {
    env = environmentOf(values.env as string | undefined);
  } catch (error) {
    return fail([(error as Error).message]);
  }
  const root = io.root ?? projectRoot();
  const wrangler = io.wrangler ?? runWrangler;
  const envArgs = envFlags(env);
  const target = env ? `environment "${env}"` : 'production (the top level of wrangler.toml)';

  const toml = await tomlNames(root, env);
  let framework: Setting[];
  let config: AccountsConfig;
  try {
    config = io.config ?? loadAccountsConfig(accountsFileFor(root, env));
    framework = [
      ...eventsSettings(io.eventTypes ?? eventTypes(join(root, 'events')), eventsAccountsOf(config)),
      ...accountsSettings(config.accounts),
      // Locally /mcp is open, with no consent page: nothing to check there.
      ...(values.local ? [] : oauthSettings(toml.kv)),
    ];
  } catch (error) {
    if (error instanceof ConfigError) return fail([error.message]);
    throw error;
  }
  const settings = settingsOf(
    await (io.readFunctions ?? (() => readManifest({ secret: randomBytes(24).toString('base64url'), root })))(),
    framework,
  );
  if (command === 'list') {
    io.stdout.write(`${settingsTable(settings)}\n`);
    return 0;
  }
  const { vars } = toml;

  if (command === 'check' && values.local) {
    const file = resolve(root, (values['dev-vars'] as string | undefined) ?? '.dev.vars');
    let supplied: string[];
    try {
      supplied = await (io.devSupplied ?? devSuppliedNames)(root);
    } catch (error) {
      return fail([`${(error as Error).message.split('\n')[0]} (needed to see what npm run dev supplies).`]);
    }
    const fromFile = devVarsNames(file);
    const fromDev = settings
      .map((setting) => setting.name)
      .filter((name) => supplied.includes(name) && !fromFile.includes(name) && !vars.includes(name));
    const missing = missingLocally(settings, { root, file, tomlVars: vars, supplied: fromDev });
    if (missing.length > 0) return fail(missing);
    const named = fromDev.map((name) => (name === 'FUNCTIONS_SECRET' ? `${name} (none: no key needed)` : name));
    io.stdout.write(
      `All ${settings.length} settings are set for local development${named.length > 0 ? ` (npm run dev supplies ${named.join(', ')})` : ''}.\n`,
    );
    return 0;
  }

  let given: Record<string, string>;
  try {
    given = valuesOf(io.env, settings);
  } catch (error) {
    return fail([(error as Error).message]);
  }
  // A guessable FUNCTIONS_SECRET opens every function, a guessable MCP_OWNER_SECRET approves any client.
  const weak = GUARDING_SECRETS.flatMap((name) => {
    const value = given[name];
    const problem = value === undefined ? undefined : weakSecretProblem(value, 'this run', name);
    return problem ? [problem] : [];
  });
  if (weak.length > 0) return fail(weak);
  if (command === 'check') {
    const listed = await wrangler(['secret', 'list', '--format', 'json', ...envArgs], { cwd: root });
    let onWorker: string[] = [];
    if (listed.code === 0) {
      try {
        onWorker = (JSON.parse(listed.stdout) as { name: string }[]).map((secret) => secret.name);
      } catch {
        return fail([`wrangler secret list answered something that is not JSON: ${listed.stdout.slice(0, 200)}`]);
      }
    } else if (/not found|does not exist|10007/i.test(listed.stderr + listed.stdout)) {
      io.stdout.write(`The Worker of ${target} does not exist yet: only this run's values count.\n`);
    } else {
      return fail([
        `wrangler secret list failed (${listed.code}): ${wranglerError(`${listed.stderr}\n${listed.stdout}`)}`,
      ]);
    }
    const available = new Set([...vars, ...onWorker, ...Object.keys(given)]);
    const github = env ? `the GitHub environment "${env}"` : 'the GitHub environment "production"';
    const missing = missingLines(
      settings,
      available,
      (setting) =>
        `add it as a secret of ${github} (the deploy puts it), or run npx wrangler secret put ${setting.name}${env ? ` --env ${env}` : ''}.`,
    );
    if (missing.length > 0) return fail([`Preflight of ${target} failed:`, ...missing]);
    io.stdout.write(
      `Preflight of ${target}: all ${settings.length} settings are set (${settings.map((s) => s.name).join(', ')}).\n`,
    );
    if (io.checkAccounts === false) return 0;
    // Each account: its key there (variable or store) and accepted by its platform; one line each.
    const checks = await (io.checkAccounts ?? checkAccounts)(config, { ...io.env, ...given });
    for (const check of checks) {
      const line = `Account "${check.name}" (key in ${check.key}): ${check.ok ? 'accepted by its platform' : check.problem}`;
      if (check.ok) io.stdout.write(`${line}\n`);
      else io.stderr.write(`${line}\n`);
    }
    const failed = checks.filter((check) => !check.ok).length;
    if (failed > 0) return fail([`${failed} of ${checks.length} account(s) failed the check.`]);
    return 0;
  }

  // put
  const toPut = Object.fromEntries(Object.entries(given).filter(([name]) => !vars.includes(name)));
  const names = Object.keys(toPut);
  if (names.length === 0) {
    io.stdout.write(`Nothing to put on ${target}: this run has no value of a declared setting.\n`);
    return 0;
  }
  const put = await wrangler(['secret', 'bulk', ...envArgs], { input: JSON.stringify(toPut), cwd: root });
  if (put.code !== 0) {
    const why = wranglerError(`${put.stderr}\n${put.stdout}`);
    return fail([
      `wrangler secret bulk failed (${put.code}) for ${target}: ${why} Run it again: whether any was put is unknown.`,
    ]);
  }
  io.stdout.write(`Put ${names.length} secret(s) on ${target}: ${names.join(', ')}.\n`);
  return 0;
};

/** `agent-functions secrets`: loads .env, then runs the subcommand. */
export const main = (argv: string[]): Promise<number> => {
  const dotenv = join(projectRoot(), '.env');
  if (existsSync(dotenv)) process.loadEnvFile(dotenv);
  return runSecrets(argv, { env: process.env, stdout: process.stdout, stderr: process.stderr });
};
