// What every `npm run accounts` command shares: its inputs, its flags, the Worker's account store,
// the key (read from standard input or a named variable, checked with the platform), and the sync
// of one account in-process.
import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import { createPlatformClient, type KeyPlacement } from 'agent-functions/platform';
import type { CommandIo } from '../io.ts';
import { storeClient } from '../project/accountStore.ts';
import type { AccountsConfig } from '../project/accounts.ts';
import { runSync, type SyncIo } from '../sync/run.ts';

export interface AccountsIo extends CommandIo {
  /** Where the key is read from when --key-env is not given. */
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  /** Reaches the Worker's account store (default: global fetch). */
  fetch?: typeof fetch;
  /** The platform API of one account (default: the platform client with real fetch). */
  createApi?: SyncIo['createApi'];
  /** What the sync of `add` and `remove` runs with beside the accounts (tests: the manifest, the linter). */
  sync?: Partial<SyncIo>;
}

export type Flags = {
  help?: boolean;
  json?: boolean;
  yes?: boolean;
  env?: string;
  'base-url'?: string;
  'key-env'?: string;
  'value-env'?: string;
  remove?: boolean;
  'key-placement'?: string;
  concurrency?: string;
  'no-sync'?: boolean;
  filter?: string;
  limit?: string;
  after?: string;
};

/** A mistake of the command line or the input; exit code 2. */
export class UsageError extends Error {}

export const COMMANDS = ['add', 'import', 'list', 'remove', 'rotate', 'secret'];

/** What a value read for an account is: its API key (--key-env), or one of its secrets (--value-env). */
export type Reading = { what: string; flag: '--key-env' | '--value-env'; command: string };
const API_KEY: Reading = { what: 'the API key', flag: '--key-env', command: 'add' };

/** Reads the key (or a secret): the named variable, else standard input (a terminal gets a prompt and no echo). */
export const readKey = async (
  io: AccountsIo,
  fromEnv: string | undefined,
  name: string,
  reading: Reading = API_KEY,
): Promise<string> => {
  if (fromEnv) {
    const value = io.env[fromEnv]?.trim();
    if (!value) throw new UsageError(`${reading.flag} ${fromEnv}: that variable is not set (or empty) in this run.`);
    return value;
  }
  let text = '';
  if (io.stdin.isTTY) {
    io.stderr.write(`Paste ${reading.what} of account "${name}" (not shown), then Enter: `);
    const muted = new Writable({ write: (_chunk, _encoding, done) => done() });
    const rl = createInterface({ input: io.stdin, output: muted, terminal: true });
    text = await rl.question('');
    rl.close();
    io.stderr.write('\n');
  } else {
    for await (const chunk of io.stdin) text += String(chunk);
  }
  const value = text.trim();
  if (!value) {
    throw new UsageError(
      `No ${reading === API_KEY ? 'key' : 'value'} on standard input: pipe ${reading.what} (printf %s "$VALUE" | npm run accounts -- ${reading.command} ${name} ...) or name a variable with ${reading.flag}.`,
    );
  }
  if (/[\r\n]/.test(value) || (reading === API_KEY && /\s/.test(value))) {
    throw new UsageError(
      `What was read from standard input holds a line break${reading === API_KEY ? ' or a space' : ''}: give ${reading.what} alone.`,
    );
  }
  return value;
};

/** Asks a yes/no question on the terminal. */
export const confirm = async (io: AccountsIo, question: string): Promise<boolean> => {
  const rl = createInterface({ input: io.stdin, output: io.stderr as NodeJS.WritableStream });
  const answer = await rl.question(`${question} [y/N] `);
  rl.close();
  return /^y(es)?$/i.test(answer.trim());
};

/** One run of a command: its inputs and the accounts file it edits. */
export type Run = {
  io: AccountsIo;
  flags: Flags;
  root: string;
  file: string;
  source: string;
  config: AccountsConfig;
};

/** The Worker's origin and secret, which every command but list needs. */
export const workerOf = (io: AccountsIo) => {
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
export const verifyKey = async (
  name: string,
  baseUrl: string,
  apiKey: string,
  keyPlacement: KeyPlacement | undefined,
) => {
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

/** The sync of one account, in-process; `api` replaces the account's platform client when given. */
export const syncOne = (run: Run, name: string, args: string[], overrides: Partial<SyncIo>) =>
  runSync(['--account', name, ...(run.flags.env ? ['--env', run.flags.env] : []), ...args], {
    env: run.io.env,
    stdout: run.io.stdout,
    stderr: run.io.stderr,
    root: run.root,
    ...run.io.sync,
    ...overrides,
  });
