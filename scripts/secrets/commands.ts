// The subcommands of `npm run secrets` that check or put settings: check --local (.dev.vars),
// check (a deployed Worker, then each account's key) and put (one wrangler secret bulk).
import { resolve } from 'node:path';
import { devSuppliedNames } from '../local/supplied.ts';
import { checkAccounts } from '../project/accountCheck.ts';
import type { AccountsConfig } from '../project/accounts.ts';
import { runWrangler, wranglerError } from '../wrangler.ts';
import type { SecretsIo } from './io.ts';
import { devVarsNames, missingLocally } from './local.ts';
import { missingLines, type Setting } from './settings.ts';

/** The flags of `npm run secrets`. */
export interface SecretsFlags {
  help?: boolean;
  env?: string;
  local?: boolean;
  'dev-vars'?: string;
}

/** What a check or put works on: the target and its settings. */
export interface SecretsRun {
  io: SecretsIo;
  root: string;
  env: string | undefined;
  envArgs: string[];
  /** The target as the messages name it. */
  target: string;
  settings: Setting[];
  /** wrangler.toml [vars] of the target. */
  vars: string[];
  config: AccountsConfig;
}

/** Prints each line on stderr; the exit code 1. */
export const failWith = (io: SecretsIo, lines: string[]): number => {
  for (const line of lines) io.stderr.write(`${line}\n`);
  return 1;
};

/** check --local: .dev.vars (and wrangler.toml [vars]) before npm run dev, counting what dev supplies itself. */
export const checkLocal = async (run: SecretsRun, devVars: string | undefined): Promise<number> => {
  const { io, root, settings, vars } = run;
  const file = resolve(root, devVars ?? '.dev.vars');
  let supplied: string[];
  try {
    supplied = await (io.devSupplied ?? devSuppliedNames)(root);
  } catch (error) {
    return failWith(io, [`${(error as Error).message.split('\n')[0]} (needed to see what npm run dev supplies).`]);
  }
  const fromFile = devVarsNames(file);
  const fromDev = settings
    .map((setting) => setting.name)
    .filter((name) => supplied.includes(name) && !fromFile.includes(name) && !vars.includes(name));
  const missing = missingLocally(settings, { root, file, tomlVars: vars, supplied: fromDev });
  if (missing.length > 0) return failWith(io, missing);
  const named = fromDev.map((name) => (name === 'FUNCTIONS_SECRET' ? `${name} (none: no key needed)` : name));
  io.stdout.write(
    `All ${settings.length} settings are set for local development${named.length > 0 ? ` (npm run dev supplies ${named.join(', ')})` : ''}.\n`,
  );
  return 0;
};

/** The names of the secrets already on the target's Worker (none when it does not exist yet), or why they cannot be read. */
const secretsOnWorker = async (run: SecretsRun): Promise<string[] | { problem: string }> => {
  const { io, root, envArgs, target } = run;
  const listed = await (io.wrangler ?? runWrangler)(['secret', 'list', '--format', 'json', ...envArgs], { cwd: root });
  if (listed.code === 0) {
    try {
      return (JSON.parse(listed.stdout) as { name: string }[]).map((secret) => secret.name);
    } catch {
      return { problem: `wrangler secret list answered something that is not JSON: ${listed.stdout.slice(0, 200)}` };
    }
  }
  if (/not found|does not exist|10007/i.test(listed.stderr + listed.stdout)) {
    io.stdout.write(`The Worker of ${target} does not exist yet: only this run's values count.\n`);
    return [];
  }
  return {
    problem: `wrangler secret list failed (${listed.code}): ${wranglerError(`${listed.stderr}\n${listed.stdout}`)}`,
  };
};

/** Each account: its key there (variable or store) and accepted by its platform; one line each. */
const checkEachAccount = async (run: SecretsRun, given: Record<string, string>): Promise<number> => {
  const { io } = run;
  if (io.checkAccounts === false) return 0;
  const checks = await (io.checkAccounts ?? checkAccounts)(run.config, { ...io.env, ...given });
  for (const check of checks) {
    const line = `Account "${check.name}" (key in ${check.key}): ${check.ok ? 'accepted by its platform' : check.problem}`;
    if (check.ok) io.stdout.write(`${line}\n`);
    else io.stderr.write(`${line}\n`);
  }
  const failed = checks.filter((check) => !check.ok).length;
  if (failed > 0) return failWith(io, [`${failed} of ${checks.length} account(s) failed the check.`]);
  return 0;
};

/** check: the target's vars, the secrets on its Worker and this run's values cover every setting; then each account. */
export const checkTarget = async (run: SecretsRun, given: Record<string, string>): Promise<number> => {
  const { io, env, target, settings, vars } = run;
  const onWorker = await secretsOnWorker(run);
  if (!Array.isArray(onWorker)) return failWith(io, [onWorker.problem]);
  const available = new Set([...vars, ...onWorker, ...Object.keys(given)]);
  const github = env ? `the GitHub environment "${env}"` : 'the GitHub environment "production"';
  const missing = missingLines(
    settings,
    available,
    (setting) =>
      `add it as a secret of ${github} (the deploy puts it), or run npx wrangler secret put ${setting.name}${env ? ` --env ${env}` : ''}.`,
  );
  if (missing.length > 0) return failWith(io, [`Preflight of ${target} failed:`, ...missing]);
  io.stdout.write(
    `Preflight of ${target}: all ${settings.length} settings are set (${settings.map((s) => s.name).join(', ')}).\n`,
  );
  return checkEachAccount(run, given);
};

/** put: every value this run has that is not a wrangler.toml var, in one wrangler secret bulk; never prints a value. */
export const putSecrets = async (run: SecretsRun, given: Record<string, string>): Promise<number> => {
  const { io, root, envArgs, target, vars } = run;
  const toPut = Object.fromEntries(Object.entries(given).filter(([name]) => !vars.includes(name)));
  const names = Object.keys(toPut);
  if (names.length === 0) {
    io.stdout.write(`Nothing to put on ${target}: this run has no value of a declared setting.\n`);
    return 0;
  }
  const put = await (io.wrangler ?? runWrangler)(['secret', 'bulk', ...envArgs], {
    input: JSON.stringify(toPut),
    cwd: root,
  });
  if (put.code !== 0) {
    const why = wranglerError(`${put.stderr}\n${put.stdout}`);
    return failWith(io, [
      `wrangler secret bulk failed (${put.code}) for ${target}: ${why} Run it again: whether any was put is unknown.`,
    ]);
  }
  io.stdout.write(`Put ${names.length} secret(s) on ${target}: ${names.join(', ')}.\n`);
  return 0;
};
