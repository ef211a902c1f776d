// Shared by the sync tests: the real manifest (read once from the Worker), a platform emulator,
// and an in-process run of the command whose output is captured.
import { Writable } from 'node:stream';
import { afterEach } from 'vitest';
import { type EmulatorOptions, type RunningEmulator, startEmulator } from '../../platform/emulator.ts';
import type { ServedFunction } from '../../project/manifest.ts';
import { accountApi } from '../../sync/accountApi.ts';
import { runSync, type SyncIo } from '../../sync/run.ts';

export const SECRET = 'sync-test-functions-secret';
export const ORIGIN = 'https://fns.example.dev';

/** A stream that keeps what was written. */
export const capture = () => {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
};

/** A platform emulator on a free port, with fast, deterministic settings unless overridden. */
export const platform = (options: EmulatorOptions = {}): Promise<RunningEmulator> =>
  startEmulator({ port: 0, rateLimit: false, ...options });

/** A `start` that gives each test its own emulator, closed after the test. */
export const emulatorPerTest = () => {
  let running: RunningEmulator | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });
  return async (options: EmulatorOptions = {}): Promise<RunningEmulator> => {
    running = await platform(options);
    return running;
  };
};

/** The seeded key of a plan's account. */
export const keyOf = (emulator: RunningEmulator, plan: string): string => {
  const account = emulator.accounts.find((a) => a.plan === plan);
  if (!account) throw new Error(`no ${plan} account`);
  return account.apiKey;
};

/** The custom functions an account holds, straight from the emulator's state. */
export const recordsOf = (emulator: RunningEmulator, plan: string) => {
  const account = emulator.state.accounts.find((a) => a.plan === plan);
  if (!account) throw new Error(`no ${plan} account`);
  return [...account.functions.values()].sort((a, b) => a.name.localeCompare(b.name));
};

/** Requests that changed something (every method but GET). */
export const writesIn = (emulator: RunningEmulator, since = 0) =>
  emulator
    .log()
    .slice(since)
    .filter((entry) => entry.method !== 'GET' && entry.path.startsWith('/v1/'));

/**
 * Runs `npm run sync -- ...args` in-process against `emulator` (business account unless `env` says
 * otherwise), with `served` as the Worker's manifest and short retry pauses.
 */
export const sync = async (
  emulator: RunningEmulator,
  served: ServedFunction[],
  args: string[] = [],
  options: { env?: Record<string, string | undefined>; io?: Partial<SyncIo> } = {},
) => {
  const stdout = capture();
  const stderr = capture();
  const run = await runSync(args, {
    env: {
      PLATFORM_BASE_URL: emulator.url,
      PLATFORM_API_KEY: keyOf(emulator, 'business'),
      FUNCTIONS_BASE_URL: ORIGIN,
      FUNCTIONS_SECRET: SECRET,
      ...options.env,
    },
    stdout: stdout.stream,
    stderr: stderr.stream,
    readManifest: async () => served,
    createApi: (account, options) =>
      accountApi({ ...account, ...options, retry: { retries: 3, baseDelayMs: 1, maxDelayMs: 5 } }),
    roundDelayMs: 5,
    // Hermetic: not this repository's events/ (scripts/test/sync/webhook.test.ts passes its own).
    eventTypes: [],
    // Hermetic: a deployed Worker at ORIGIN that accepts the keys (workerCheck.test.ts uses a real one).
    fetchWorker: async () => Response.json({ functions: served }),
    // These tests are about syncing; scripts/test/sync/lint.test.ts runs the description linter.
    lint: false,
    ...options.io,
  });
  return { ...run, stdout: stdout.text(), stderr: stderr.text() };
};
