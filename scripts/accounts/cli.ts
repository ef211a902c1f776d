// `npm run accounts -- <add|list|remove|rotate>`: the platform accounts one project serves
// (docs/sync-and-accounts.md "Onboarding a client"). A client's key goes to the Worker's account
// store (src/accounts/), read from standard input or a named variable, never from the command line;
// the accounts file records the account; sync registers the functions on that account only.
// Everything it touches comes in through `AccountsIo`, so tests run it in-process.
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { ACCOUNT_NAME, createPlatformClient, type KeyPlacement } from 'agent-functions/platform';
import { projectRoot } from '../project.ts';
import {
  type AccountApi,
  type AccountsConfig,
  accountApi,
  accountsFileFor,
  ConfigError,
  loadAccountsConfig,
  type ResolvedAccount,
} from '../sync/accounts.ts';
import { runSync, type SyncIo } from '../sync/cli.ts';
import { paintFor } from '../sync/paint.ts';
import { isOwnedUrl } from '../sync/plan.ts';
import { addAccountToFile, removeAccountFromFile } from './file.ts';
import { StoreError, storeClient } from './store.ts';

export const HELP = `Usage: npm run accounts -- <command> [options]

The platform accounts this project serves (platform.accounts.json). A client account's API key is
kept in the Worker's account store (encrypted under ACCOUNTS_SECRET), never in a file, a log or a url.

Commands:
  add <name>     Record the account, store its key, sync its functions to it and print what its
                 agent can now call. The key is read from standard input (paste it, or pipe it),
                 or from the variable named by --key-env; never from the command line.
  list           The accounts of the file: where each key lives and whether it is stored. Never a key.
  remove <name>  Delete the account's registrations on its platform (that account's only), its stored
                 key, and its entry in the file. Asks first on a terminal; elsewhere needs --yes.
  rotate <name>  Store a new key for the account (read as add reads it); the others are untouched.

Options:
  --base-url URL       With add: the account's platform address (a white-label tenant's own);
                       default PLATFORM_BASE_URL.
  --key-env NAME       With add and rotate: read the key from this environment variable.
  --key-placement P    With add: how the platform takes the key: header (default), bearer or query.
  --env NAME           The environment (platform.accounts.NAME.json and .env.NAME when they exist).
  --json               With list: one JSON document.
  --yes                With remove: do not ask.
  -h, --help           Show this help.

Environment (or .env): FUNCTIONS_BASE_URL (the deployed Worker), FUNCTIONS_SECRET (as the Worker's).
`;

export interface AccountsIo {
  env: Record<string, string | undefined>;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Where the key is read from when --key-env is not given. */
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  root?: string;
  /** Reaches the Worker's account store (default: global fetch). */
  fetch?: typeof fetch;
  /** The platform API of one account (default: the platform client with real fetch). */
  createApi?: SyncIo['createApi'];
  /** What the sync of `add` and `remove` runs with beside the accounts (tests: the manifest, the linter). */
  sync?: Partial<SyncIo>;
}

type Flags = {
  help?: boolean;
  json?: boolean;
  yes?: boolean;
  env?: string;
  'base-url'?: string;
  'key-env'?: string;
  'key-placement'?: string;
};

class UsageError extends Error {}

const COMMANDS = ['add', 'list', 'remove', 'rotate'];

/** Reads the key: the named variable, else standard input (a terminal gets a prompt and no echo). */
const readKey = async (io: AccountsIo, keyEnv: string | undefined, name: string): Promise<string> => {
  if (keyEnv) {
    const value = io.env[keyEnv]?.trim();
    if (!value) throw new UsageError(`--key-env ${keyEnv}: that variable is not set (or empty) in this run.`);
    return value;
  }
  let text = '';
  if (io.stdin.isTTY) {
    io.stderr.write(`Paste the API key of account "${name}" (not shown), then Enter: `);
    const muted = new Writable({ write: (_chunk, _encoding, done) => done() });
    const rl = createInterface({ input: io.stdin, output: muted, terminal: true });
    text = await rl.question('');
    rl.close();
    io.stderr.write('\n');
  } else {
    for await (const chunk of io.stdin) text += String(chunk);
  }
  const key = text.trim();
  if (!key) {
    throw new UsageError(
      `No key on standard input: pipe it (printf %s "$KEY" | npm run accounts -- add ${name}) or name a variable with --key-env.`,
    );
  }
  if (/\s/.test(key))
    throw new UsageError('The key read from standard input holds a space or a line break: give the key alone.');
  return key;
};

const confirm = async (io: AccountsIo, question: string): Promise<boolean> => {
  const rl = createInterface({ input: io.stdin, output: io.stderr as NodeJS.WritableStream });
  const answer = await rl.question(`${question} [y/N] `);
  rl.close();
  return /^y(es)?$/i.test(answer.trim());
};

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
      options: {
        help: { type: 'boolean', short: 'h' },
        json: { type: 'boolean' },
        yes: { type: 'boolean', short: 'y' },
        env: { type: 'string', short: 'e' },
        'base-url': { type: 'string' },
        'key-env': { type: 'string' },
        'key-placement': { type: 'string' },
      },
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
    if (extra.length > 0) throw new UsageError(`Unexpected "${extra.join(' ')}". See npm run accounts -- --help.`);
    if (command !== 'list' && !name) throw new UsageError(`npm run accounts -- ${command} <name>: which account?`);
    if (name !== undefined && !ACCOUNT_NAME.test(name)) {
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
    if (command === 'add') return await add(run, name as string);
    if (command === 'remove') return await remove(run, name as string);
    return await rotate(run, name as string);
  } catch (error) {
    if (error instanceof UsageError) return fail(error.message, 2);
    if (error instanceof ConfigError || error instanceof StoreError) return fail(error.message);
    throw error;
  }
};

type Run = {
  io: AccountsIo;
  flags: Flags;
  root: string;
  file: string;
  source: string;
  config: AccountsConfig;
};

/** The Worker's origin and secret, which every command but list needs. */
const workerOf = (io: AccountsIo) => {
  const origin = io.env.FUNCTIONS_BASE_URL?.trim();
  const secret = io.env.FUNCTIONS_SECRET?.trim();
  if (!origin || !secret) {
    throw new UsageError(
      `Missing ${[origin ? '' : 'FUNCTIONS_BASE_URL', secret ? '' : 'FUNCTIONS_SECRET'].filter(Boolean).join(' and ')}: the deployed Worker's address and its secret (in the environment or .env), as npm run sync reads them.`,
    );
  }
  return { origin, secret, store: storeClient(origin, secret, io.fetch ?? fetch) };
};

/** Whether the platform at `baseUrl` takes `apiKey`: one list request. Throws a sentence when not. */
const verifyKey = async (name: string, baseUrl: string, apiKey: string, keyPlacement: KeyPlacement | undefined) => {
  const client = createPlatformClient({
    baseUrl,
    apiKey,
    ...(keyPlacement ? { keyPlacement } : {}),
    retry: { retries: 1, baseDelayMs: 200, maxDelayMs: 1000 },
  });
  try {
    await client.customFunctions.list();
  } catch (error) {
    const status = (error as { status?: number }).status;
    throw new UsageError(
      status === 401 || status === 403
        ? `The platform at ${baseUrl} refused this key for account "${name}" (${status}): nothing was stored. Check the key (and --base-url for a white-label address).`
        : `Could not check the key with the platform at ${baseUrl}: ${(error as Error).message}. Nothing was stored.`,
    );
  }
};

const list = async ({ io, flags, config }: Run): Promise<number> => {
  let stored: Map<string, number> | undefined;
  let storeProblem: string | undefined;
  if (config.accounts.some((account) => !account.apiKeyEnv)) {
    try {
      stored = new Map((await workerOf(io).store.list()).map((entry) => [entry.name, entry.updatedAt]));
    } catch (error) {
      if (!(error instanceof StoreError || error instanceof UsageError)) throw error;
      storeProblem = error.message;
    }
  }
  const rows = config.accounts.map((account, i) => {
    const inStore = !account.apiKeyEnv;
    const updatedAt = inStore ? stored?.get(account.name) : undefined;
    return {
      name: account.name,
      first: i === 0,
      key: inStore ? 'store' : `variable ${account.apiKeyEnv}`,
      // A variable's value is this run's, not the Worker's: say only whether this run has it.
      stored: inStore ? (stored ? updatedAt !== undefined : null) : null,
      ...(inStore && updatedAt !== undefined ? { updatedAt: new Date(updatedAt).toISOString() } : {}),
      ...(!inStore ? { setHere: Boolean(io.env[account.apiKeyEnv as string]?.trim()) } : {}),
      baseUrl: account.baseUrl ?? `from ${account.baseUrlEnv ?? 'PLATFORM_BASE_URL'}`,
    };
  });
  if (flags.json) {
    io.stdout.write(`${JSON.stringify({ accounts: rows, ...(storeProblem ? { storeProblem } : {}) }, null, 2)}\n`);
    return storeProblem ? 1 : 0;
  }
  const paint = paintFor(io.stdout);
  for (const row of rows) {
    const state =
      row.key === 'store'
        ? row.stored === null
          ? paint.yellow('store not reached')
          : row.stored
            ? paint.green(`stored ${row.updatedAt}`)
            : paint.red('not stored')
        : row.setHere
          ? 'set in this run'
          : paint.dim('not set in this run');
    io.stdout.write(`${row.name}${row.first ? ' (first)' : ''}  key: ${row.key}, ${state}  platform: ${row.baseUrl}\n`);
  }
  if (storeProblem) io.stderr.write(`${storeProblem}\n`);
  return storeProblem ? 1 : 0;
};

/** The sync of one account, in-process; `api` replaces the account's platform client when given. */
const syncOne = (run: Run, name: string, args: string[], overrides: Partial<SyncIo>) =>
  runSync(['--account', name, ...(run.flags.env ? ['--env', run.flags.env] : []), ...args], {
    env: run.io.env,
    stdout: run.io.stdout,
    stderr: run.io.stderr,
    root: run.root,
    ...run.io.sync,
    ...overrides,
  });

const add = async (run: Run, name: string): Promise<number> => {
  const { io, flags, config, file, source } = run;
  if (config.accounts.some((account) => account.name === name)) {
    throw new UsageError(
      `${source} already has account "${name}": npm run accounts -- rotate ${name} stores a new key.`,
    );
  }
  const { origin, store } = workerOf(io);
  const baseUrl = flags['base-url'] ?? io.env.PLATFORM_BASE_URL?.trim();
  if (!baseUrl) throw new UsageError(`Where is account "${name}"? Give --base-url URL (or set PLATFORM_BASE_URL).`);
  const keyPlacement = flags['key-placement'] as KeyPlacement | undefined;
  const apiKey = await readKey(io, flags['key-env'], name);
  await verifyKey(name, baseUrl, apiKey, keyPlacement);
  await store.put(name, {
    apiKey,
    ...(flags['base-url'] ? { baseUrl: flags['base-url'] } : {}),
    ...(keyPlacement ? { keyPlacement } : {}),
  });
  addAccountToFile(
    file,
    { name, ...(flags['base-url'] ? { baseUrl: flags['base-url'] } : {}), ...(keyPlacement ? { keyPlacement } : {}) },
    source,
  );
  io.stdout.write(`Stored the key of account "${name}" in the Worker's account store and added it to ${source}.\n`);
  // This run holds the key: sync with it directly (an in-process variable), not through the Worker's relay.
  const heldKey = 'AGENT_FUNCTIONS_ACCOUNTS_ADD_KEY';
  let api: AccountApi | undefined;
  const createApi: SyncIo['createApi'] = (account: ResolvedAccount, options) => {
    api = io.createApi ? io.createApi(account, options) : accountApi({ ...account, ...options });
    return api;
  };
  const direct = { name, apiKeyEnv: heldKey, baseUrl, ...(keyPlacement ? { keyPlacement } : {}) };
  const synced = await syncOne(run, name, [], {
    createApi,
    env: { ...io.env, [heldKey]: apiKey },
    config: { accounts: [...config.accounts, direct] },
  });
  if (synced.exitCode !== 0 && synced.exitCode !== 2) {
    io.stderr.write(`The sync of "${name}" did not finish: npm run sync -- --account ${name} finishes it.\n`);
    return synced.exitCode;
  }
  const callable = api
    ? (await api.api.list())
        .filter((fn) => isOwnedUrl(fn.url, origin))
        .map((fn) => fn.name)
        .sort()
    : [];
  io.stdout.write(
    `The agent of "${name}" can now call ${callable.length} function(s)${callable.length ? `: ${callable.join(', ')}` : ''}.\n`,
  );
  return 0;
};

const remove = async (run: Run, name: string): Promise<number> => {
  const { io, flags, config, file, source } = run;
  const index = config.accounts.findIndex((account) => account.name === name);
  const account = config.accounts[index];
  if (!account) throw new UsageError(`${source} has no account "${name}" (npm run accounts -- list).`);
  if (index === 0) {
    throw new UsageError(
      `"${name}" is the first account of ${source}: its urls have the plain form, and removing it would change every other account's. Move another account first, or remove the others.`,
    );
  }
  if (!flags.yes) {
    if (!io.stdin.isTTY)
      throw new UsageError(`Removing "${name}" deletes its registrations on its platform: add --yes to confirm.`);
    const yes = await confirm(
      io,
      `Remove account "${name}": delete its registrations on its platform, ${account.apiKeyEnv ? '' : 'its stored key, '}and its entry in ${source}?`,
    );
    if (!yes) {
      io.stdout.write('Nothing changed.\n');
      return 1;
    }
  }
  const { store } = workerOf(io);
  // Only this account, and none of its functions wanted: --prune deletes every one this project registered there.
  const pruneConfig: AccountsConfig = {
    accounts: config.accounts.map((a) => (a.name === name ? { ...a, functions: [] } : a)),
  };
  const pruned = await syncOne(run, name, ['--prune'], {
    config: pruneConfig,
    eventTypes: [],
    fetchWorker: false,
    ...(io.createApi ? { createApi: io.createApi } : {}),
  });
  if (pruned.exitCode !== 0 && pruned.exitCode !== 2) {
    io.stderr.write(
      `Could not delete the registrations of "${name}": its key and its entry in ${source} are kept, so npm run accounts -- remove ${name} can finish.\n`,
    );
    return pruned.exitCode;
  }
  if (!account.apiKeyEnv) await store.remove(name);
  removeAccountFromFile(file, name, source);
  io.stdout.write(
    `Removed account "${name}": its registrations, ${account.apiKeyEnv ? `(its key stays in ${account.apiKeyEnv}) ` : 'its stored key '}and its entry in ${source}.\n`,
  );
  return 0;
};

const rotate = async (run: Run, name: string): Promise<number> => {
  const { io, flags, config, source } = run;
  const account = config.accounts.find((a) => a.name === name);
  if (!account) throw new UsageError(`${source} has no account "${name}": npm run accounts -- add ${name}.`);
  if (account.apiKeyEnv) {
    throw new UsageError(
      `Account "${name}" reads its key from the variable ${account.apiKeyEnv}: put the new key there (npx wrangler secret put ${account.apiKeyEnv}, and your CI's secret), or remove apiKeyEnv from ${source} to keep it in the account store.`,
    );
  }
  const { store } = workerOf(io);
  const baseUrl = account.baseUrl ?? io.env[account.baseUrlEnv ?? 'PLATFORM_BASE_URL']?.trim();
  const apiKey = await readKey(io, flags['key-env'], name);
  if (baseUrl) await verifyKey(name, baseUrl, apiKey, account.keyPlacement);
  const summary = await store.put(name, { apiKey });
  io.stdout.write(
    `Stored a new key for account "${name}" (${new Date(summary.updatedAt).toISOString()}); every instance of the Worker uses it within a minute. Revoke the old key on the platform.\n`,
  );
  return 0;
};

/** `agent-functions accounts`: loads the environment's .env file (variables already set win), then runs. */
export const main = (argv: string[]): Promise<number> => {
  const envIndex = argv.findIndex((arg) => arg === '--env' || arg === '-e');
  const envName = envIndex >= 0 ? argv[envIndex + 1] : argv.find((arg) => arg.startsWith('--env='))?.slice(6);
  const dotenv = join(projectRoot(), envName ? `.env.${envName}` : '.env');
  if (existsSync(dotenv)) process.loadEnvFile(dotenv);
  return runAccounts(argv, { env: process.env, stdout: process.stdout, stderr: process.stderr, stdin: process.stdin });
};
