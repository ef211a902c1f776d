// `npm run accounts -- <add|import|list|remove|rotate|secret>`: the platform accounts one project serves
// (docs/sync-and-accounts.md "Onboarding a client"). A client's key goes to the Worker's account
// store (src/accounts/), read from standard input or a named variable, never from the command line;
// the accounts file records the account; sync registers the functions on that account only.
// Everything it touches comes in through `AccountsIo`, so tests run it in-process.
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { ACCOUNT_NAME } from 'agent-functions/platform';
import { StoreError } from '../project/accountStore.ts';
import { accountsFileFor, ConfigError, loadAccountsConfig } from '../project/accounts.ts';
import { projectRoot } from '../project/paths.ts';
import { assertSettings } from '../project/settingsSchema.ts';
import { paintFor } from '../sync/paint.ts';
import { add } from './add.ts';
import { importAccounts } from './import.ts';
import { list } from './list.ts';
import { addLocally, runningDev } from './local.ts';
import { remove } from './remove.ts';
import { rotate } from './rotate.ts';
import { type AccountsIo, COMMANDS, type Flags, UsageError } from './run.ts';
import { secret } from './secret.ts';

export type { AccountsIo } from './run.ts';

export const HELP = `Usage: npm run accounts -- <command> [options]

The platform accounts this project serves (platform.accounts.json). A client account's API key is
kept in the Worker's account store (encrypted under ACCOUNTS_SECRET), never in a file, a log or a url.

Commands:
  add <name>     Record the account, store its key, sync its functions to it and print what its
                 agent can now call. The key is read from standard input (paste it, or pipe it),
                 or from the variable named by --key-env; never from the command line.
                 While npm run dev runs in this project (and FUNCTIONS_BASE_URL names no deployed
                 Worker, and no --env is given), it acts locally instead: dev's local platform
                 creates the account with a local key, serves it and syncs it; no key is read.
  import <file>  Onboard many clients at once from a CSV file (a header line: name,key,base url,settings)
                 or a JSON array of { name, key, baseUrl?, settings? }; - reads it from standard
                 input. Each key is checked with its platform and stored, the file records each
                 account, and one sync registers the functions on them. A failing row is named by
                 its account (bad key, unknown address, duplicate name, invalid settings) while the
                 others go on, and the exit code is 1. Run it again: what is done stays done.
  list           The accounts of the file: where each key lives and whether it is stored. Never a key.
  remove <name>  Delete the account's registrations on its platform (that account's only), its stored
                 key, and its entry in the file. Asks first on a terminal; elsewhere needs --yes.
  rotate <name>  Store a new key for the account (read as add reads it); the others are untouched.
  secret <name> <SECRET_NAME>
                 Store one secret setting of a stored-key account (a client's store API key), read
                 from standard input or --value-env; handlers read it with context.account.secret.
                 --remove deletes it. Only its name is ever shown.

Options:
  --base-url URL       With add: the account's platform address (a white-label tenant's own);
                       default PLATFORM_BASE_URL.
  --key-env NAME       With add and rotate: read the key from this environment variable.
  --key-placement P    With add: how the platform takes the key: header (default), bearer or query.
  --value-env NAME     With secret: read the value from this environment variable.
  --remove             With secret: delete the secret.
  --env NAME           The environment (platform.accounts.NAME.json and .env.NAME when they exist).
  --json               With list and import: one JSON document.
  --concurrency N      With import: requests in flight at once (default 8, at most 64).
  --no-sync            With import: store and record only; npm run sync registers the functions later.
  --filter TEXT        With list: only accounts whose name starts with TEXT.
  --limit N            With list: at most N accounts (a page); --after NAME gives the next page.
  --after NAME         With list: the accounts after NAME, by name.
  --yes                With remove: do not ask.
  -h, --help           Show this help.

Environment (or .env): FUNCTIONS_BASE_URL (the deployed Worker), FUNCTIONS_SECRET (as the Worker's);
neither is needed by add against a running npm run dev.
`;

/** The flags of every accounts command (parseArgs). */
const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  json: { type: 'boolean' },
  yes: { type: 'boolean', short: 'y' },
  env: { type: 'string', short: 'e' },
  'base-url': { type: 'string' },
  'key-env': { type: 'string' },
  'value-env': { type: 'string' },
  remove: { type: 'boolean' },
  'key-placement': { type: 'string' },
  concurrency: { type: 'string' },
  'no-sync': { type: 'boolean' },
  filter: { type: 'string' },
  limit: { type: 'string' },
  after: { type: 'string' },
} as const;

/**
 * Runs the command; never throws for expected problems, it prints them and returns the exit code.
 * @example process.exitCode = await runAccounts(['list'], { env: process.env, stdout, stderr, stdin })
 */
export const runAccounts = async (argv: string[], io: AccountsIo): Promise<number> => {
  const fail = (message: string, code = 1) => {
    io.stderr.write(`${(io.stderr as { isTTY?: boolean }).isTTY ? paintFor(io.stderr).red(message) : message}\n`);
    return code;
  };
  // Refused before parsing: a key on the command line stays in shell history and the process list.
  if (
    argv.some(
      (arg) => arg === '--key' || arg.startsWith('--key=') || arg === '--api-key' || arg.startsWith('--api-key='),
    )
  ) {
    return fail(
      'A key is never taken from the command line (it would stay in your shell history and the process list): pipe it on standard input, or name a variable with --key-env NAME.',
      2,
    );
  }
  let flags: Flags;
  let positionals: string[];
  try {
    ({ values: flags, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: OPTIONS,
    }) as { values: Flags; positionals: string[] });
  } catch (error) {
    return fail(`${(error as Error).message.split('. ')[0]}. See npm run accounts -- --help.`, 2);
  }
  const [command, name, ...extra] = positionals;
  if (flags.help || !command) {
    io.stdout.write(HELP);
    return flags.help ? 0 : 2;
  }
  try {
    if (!COMMANDS.includes(command))
      throw new UsageError(`Unknown command "${command}". See npm run accounts -- --help.`);
    const [secretName, ...more] = command === 'secret' ? extra : [undefined, ...extra];
    if (more.length > 0) throw new UsageError(`Unexpected "${more.join(' ')}". See npm run accounts -- --help.`);
    if (command === 'secret' && !secretName)
      throw new UsageError('npm run accounts -- secret <name> <SECRET_NAME>: which secret?');
    if (command === 'import' && !name)
      throw new UsageError('npm run accounts -- import <file>: which file? (- for standard input)');
    if (command !== 'list' && !name) throw new UsageError(`npm run accounts -- ${command} <name>: which account?`);
    if (command !== 'import' && name !== undefined && !ACCOUNT_NAME.test(name)) {
      throw new UsageError(
        `"${name}" is not an account name: a short label such as "client-acme" (letters, digits, . _ -).`,
      );
    }
    if (flags['key-placement'] && !['header', 'bearer', 'query'].includes(flags['key-placement'])) {
      throw new UsageError('--key-placement is header, bearer or query.');
    }
    if (flags['base-url'] && !/^https?:\/\/[^\s/]+/.test(flags['base-url'])) {
      throw new UsageError('--base-url must be an http(s) address such as https://app.client.example.');
    }
    const root = io.root ?? projectRoot();
    const file = accountsFileFor(root, flags.env);
    const source = relative(root, file) || file;
    const config = loadAccountsConfig(file);
    const run = { io, flags, root, file, source, config };
    if (command === 'list') return await list(run);
    if (command === 'add') {
      // The file's settings against the project's schema (lib/settings.ts), before a key is stored.
      await assertSettings(root, config, source);
      // While npm run dev runs here (and FUNCTIONS_BASE_URL names no deployed Worker): its local platform.
      const dev = await runningDev(run);
      if (dev) return await addLocally(run, name as string, dev);
      return await add(run, name as string);
    }
    if (command === 'import') return await importAccounts(run, name as string);
    if (command === 'remove') return await remove(run, name as string);
    if (command === 'secret') return await secret(run, name as string, secretName as string);
    return await rotate(run, name as string);
  } catch (error) {
    if (error instanceof UsageError) return fail(error.message, 2);
    if (error instanceof ConfigError || error instanceof StoreError) return fail(error.message);
    throw error;
  }
};

/** `agent-functions accounts`: loads the environment's .env file (variables already set win), then runs. */
export const main = (argv: string[]): Promise<number> => {
  const envIndex = argv.findIndex((arg) => arg === '--env' || arg === '-e');
  const envName = envIndex >= 0 ? argv[envIndex + 1] : argv.find((arg) => arg.startsWith('--env='))?.slice(6);
  const dotenv = join(projectRoot(), envName ? `.env.${envName}` : '.env');
  if (existsSync(dotenv)) process.loadEnvFile(dotenv);
  return runAccounts(argv, { env: process.env, stdout: process.stdout, stderr: process.stderr, stdin: process.stdin });
};
