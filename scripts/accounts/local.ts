// `npm run accounts -- add <name>` while `npm run dev` runs in the project (docs/local-development.md
// "Onboarding a client locally"): nothing deployed, no key to paste. The account enters
// platform.accounts.json as `add` writes it for a deployed Worker; dev sees the save, its local
// platform creates the account with a local key, its Worker serves it and every function is
// synced to it. This command waits for that and says what the account's agent can now call.
import { setTimeout as sleep } from 'node:timers/promises';
import { createPlatformClient } from 'agent-functions/platform';
import { type DevState, readDevState } from '../project/devState.ts';
import { addAccountToFile } from './file.ts';
import { type Run, UsageError } from './run.ts';

/** How long dev may take to take the account in (it restarts the Worker) and sync it. */
const WAIT_MS = 120_000;
const LOOK_MS = 500;

const isLocal = (address: string): boolean => {
  try {
    return ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(address).hostname);
  } catch {
    return false;
  }
};

/**
 * The running `npm run dev` of the project at `root` that `add` acts on: none with --env, or when
 * FUNCTIONS_BASE_URL names a deployed Worker, or when dev's recorded platform does not answer.
 * @example const dev = await runningDev(run); if (dev) return addLocally(run, name, dev);
 */
export const runningDev = async (run: Run): Promise<DevState | undefined> => {
  const origin = run.io.env.FUNCTIONS_BASE_URL?.trim();
  if (run.flags.env || (origin && !isLocal(origin))) return undefined;
  const state = readDevState(run.root);
  const first = state?.accounts?.[0];
  if (!state || !first) return undefined;
  try {
    await createPlatformClient({
      baseUrl: first.baseUrl,
      apiKey: first.apiKey,
      retry: { retries: 0 },
    }).customFunctions.list();
    return state;
  } catch {
    return undefined;
  }
};

/** Looks every LOOK_MS until `found` gives a value, or WAIT_MS have passed. */
const waitFor = async <T>(found: () => Promise<T | undefined> | T | undefined): Promise<T | undefined> => {
  for (const end = Date.now() + WAIT_MS; Date.now() < end; await sleep(LOOK_MS)) {
    const value = await found();
    if (value !== undefined) return value;
  }
  return undefined;
};

const registered = (account: { baseUrl: string; apiKey: string }) =>
  createPlatformClient({ baseUrl: account.baseUrl, apiKey: account.apiKey, retry: { retries: 0 } })
    .customFunctions.list()
    .then((records) => records.map((record) => record.name).sort())
    .catch(() => undefined);

/** `add <name>` on the local platform of the running dev: recorded, created by dev, synced. */
export const addLocally = async (run: Run, name: string, dev: DevState): Promise<number> => {
  const { io, flags, config, file, source } = run;
  if (config.accounts.some((account) => account.name === name)) {
    throw new UsageError(`${source} already has account "${name}".`);
  }
  addAccountToFile(file, { name, ...(flags['base-url'] ? { baseUrl: flags['base-url'] } : {}) }, source);
  io.stdout.write(
    `Local: added account "${name}" to ${source}; npm run dev's local platform (${dev.platformUrl}) creates it with a local key.\n`,
  );
  const played = await waitFor(() => readDevState(run.root)?.accounts?.find((account) => account.name === name));
  const first = dev.accounts?.[0];
  if (!played || !first) {
    io.stderr.write(
      `npm run dev did not take account "${name}" in within ${WAIT_MS / 1000} s: its output says why (is it still running?).\n`,
    );
    return 1;
  }
  // Synced once it holds what the first account holds (dev registers every function on each).
  const names = await waitFor(async () => {
    const [own, firsts] = await Promise.all([registered(played), registered(first)]);
    return own && firsts && own.length > 0 && firsts.every((fn) => own.includes(fn)) ? own : undefined;
  });
  io.stdout.write(`Local account "${name}": key ${played.apiKey}, at ${played.baseUrl}\n`);
  if (!names) {
    io.stderr.write(`The functions are not synced to "${name}" yet: npm run dev's output says why.\n`);
    return 1;
  }
  io.stdout.write(
    [
      `The agent of "${name}" can now call ${names.length} function(s): ${names.join(', ')}.`,
      `Play its agent: npm run platform -- call ${names[0]} '<arguments as JSON>' --account ${name}`,
      `Commit ${source}. Deployed, the account's real key goes to the Worker's account store: npm run accounts -- rotate ${name} (with that Worker's FUNCTIONS_BASE_URL and FUNCTIONS_SECRET).`,
      '',
    ].join('\n'),
  );
  return 0;
};
