// Part 3b: sync at agency scale. The real command (scripts/sync/cli.ts, in-process) against the
// local platform (scripts/platform) holding one account per client, each with its own key and the
// per-key rate limit of docs/performance.md (50 requests per 10 s), with and without 50 ms added to
// every answer (the emulator's slowMs): a first run, then a run with nothing to do; and a run in
// which one account answers 503 to everything and another's key is refused (401). The keys are
// Worker variables (a few accounts: a Worker holds at most 128) or, as agencies deploy, in the
// account store of a running Worker (the project's own, under wrangler's dev server), every
// request then going through its relay (bench/src/storedKeys.ts).
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { startEmulator } from '../../scripts/platform/emulator.ts';
import type { AccountOptions } from '../../scripts/platform/state.ts';
import type { AccountsConfig } from '../../scripts/project/accounts.ts';
import { eventTypes } from '../../scripts/project/generated.ts';
import { accountApi } from '../../scripts/sync/accountApi.ts';
import { runSync } from '../../scripts/sync/run.ts';
import { type KeysIn, storedKeysWorker, storeKeys } from './storedKeys.ts';
import { servedFunctions } from './syncBench.ts';

const ORIGIN = 'https://bench.example.dev';
const SECRET = 'bench-functions-secret-0123456789';

/** Functions per account: as many as the examples serve. */
export const ACCOUNT_FUNCTIONS = 9;
/** The per-key rate limit of the runs (requests per window). */
export const ACCOUNT_RATE_LIMIT = { limit: 50, windowMs: 10_000 };

/** One run of the sync command over many accounts, as the platform saw it. */
export interface SyncAccountsResult {
  /** Where the clients' keys are: Worker variables, or the account store through the Worker's relay. */
  keys: KeysIn;
  scenario: 'first' | 'no-op' | 'one 503, one 401' | 'first, answers lost, 429s, 5xx';
  accounts: number;
  /** Added to every answer of the platform. */
  latencyMs: number;
  /** GET requests the platform answered (list pages of functions and webhooks), 429s included. */
  reads: number;
  /** Creates, updates and deletes the platform answered, retried ones included. */
  writes: number;
  rateLimited: number;
  wallMs: number;
  /** When the last healthy account (not the failing ones) got its last answer, from the run's start. */
  healthyDoneMs: number;
  exitCode: number;
  /** Accounts per reported status (functions only, not the webhook). */
  statuses: Record<string, number>;
  /** Functions registered on the platform afterwards, and how many names were registered twice. */
  records: number;
  duplicates: number;
}

const sink = () =>
  new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  });

const accountName = (i: number) => (i === 0 ? 'agency' : `client-${String(i).padStart(3, '0')}`);
const keyVariable = (i: number) => `BENCH_KEY_${i}`;

/** Faults of a lossy platform: every 50th create applied but its answer lost, every 100th request a 429, every 150th a 503. */
const LOSSY = {
  loseAnswers: { everyNth: 50, methods: ['POST'], mode: 'drop' as const },
  rateLimitStorm: { everyNth: 100, retryAfter: '1' },
  serverErrors: { everyNth: 150, status: 503 },
};

/**
 * The run's accounts file and environment for accounts with these keys and addresses: each key in
 * a variable, or (given a running Worker's `origin`) every one but the first stored in its store.
 */
const accountsOf = async (
  accounts: readonly { apiKey: string; baseUrl: string }[],
  origin: string | undefined,
): Promise<{ env: Record<string, string>; config: AccountsConfig }> => {
  const env: Record<string, string> = { FUNCTIONS_BASE_URL: origin ?? ORIGIN, FUNCTIONS_SECRET: SECRET };
  const config: AccountsConfig = { accounts: [] };
  const stored: { name: string; apiKey: string; baseUrl: string }[] = [];
  for (const [i, { apiKey, baseUrl }] of accounts.entries()) {
    if (origin && i > 0) {
      stored.push({ name: accountName(i), apiKey, baseUrl });
      config.accounts.push({ name: accountName(i) });
    } else {
      env[keyVariable(i)] = apiKey;
      config.accounts.push({ name: accountName(i), apiKeyEnv: keyVariable(i), baseUrl });
    }
  }
  if (origin) await storeKeys(origin, SECRET, stored);
  return { env, config };
};

/** How many accounts ended in each status (their functions; the events webhooks are not counted). */
const statusCounts = (reports: { account: string; status: string }[]): Record<string, number> => {
  const statuses: Record<string, number> = {};
  for (const report of reports.filter((r) => !r.account.endsWith('(events webhook)'))) {
    statuses[report.status] = (statuses[report.status] ?? 0) + 1;
  }
  return statuses;
};

/** The platform's `count` accounts: the agency's, on an unlimited plan, then its clients'. */
const seededAccounts = (count: number): AccountOptions[] =>
  Array.from({ length: count }, (_, i) => ({
    plan: i === 0 ? 'agency_unlimited' : 'business',
    name: accountName(i),
    apiKey: `bench-key-${i}`,
  }));

/** A platform of one account that answers 503 to everything, after `latencyMs`. */
const brokenPlatform = (latencyMs: number) =>
  startEmulator({
    port: 0,
    accounts: [{ plan: 'business', apiKey: 'bench-key-1' }],
    rateLimit: false,
    faults: { slowMs: latencyMs, serverErrors: { everyNth: 1, status: 503 } },
  });

/**
 * First and no-op sync of `accounts` accounts x 9 functions (and the examples' events webhook),
 * `latencyMs` added to every answer. With `faults: 'outage'`, the second account answers 503 to
 * everything (its own platform) and the third's key is refused; with `faults: 'lossy'`, the
 * platform loses answers and answers 429 and 503 now and then (LOSSY); one first run is measured.
 * @example await measureSyncAccounts(500, { latencyMs: 50 })
 */
export const measureSyncAccounts = async (
  accounts: number,
  options: { latencyMs: number; faults?: 'outage' | 'lossy'; argv?: string[]; keys?: KeysIn },
): Promise<SyncAccountsResult[]> => {
  const keys = options.keys ?? 'variables';
  const served = await servedFunctions(ACCOUNT_FUNCTIONS);
  const types = eventTypes(join(import.meta.dirname, '../../events'));
  const seeded = seededAccounts(accounts);
  let reads = 0;
  let writes = 0;
  let rateLimited = 0;
  const platform = await startEmulator({
    port: 0,
    accounts: seeded,
    rateLimit: ACCOUNT_RATE_LIMIT,
    faults: { slowMs: options.latencyMs, ...(options.faults === 'lossy' ? LOSSY : {}) },
    onRequest: (request) => {
      if (!request.path.startsWith('/v1/')) return;
      if (request.method === 'GET') reads++;
      else writes++;
      if (request.status === 429) rateLimited++;
    },
  });
  // One account's platform answers 503 to everything (a white-label address having an outage).
  const outage = options.faults === 'outage';
  const broken = outage ? await brokenPlatform(options.latencyMs) : undefined;
  // With the store, every client but the first (the agency's variable) is kept there, reached through the relay.
  const worker = keys === 'store' ? await storedKeysWorker(SECRET) : undefined;
  const { env, config } = await accountsOf(
    seeded.map((account, i) => ({
      apiKey: outage && i === 2 ? 'a-revoked-key' : (account.apiKey ?? ''),
      baseUrl: broken && i === 1 ? broken.url : platform.url,
    })),
    worker?.origin,
  );
  const results: SyncAccountsResult[] = [];
  const run = async (scenario: SyncAccountsResult['scenario']) => {
    reads = 0;
    writes = 0;
    rateLimited = 0;
    const started = performance.now();
    let healthyDoneMs = 0;
    const { exitCode, reports } = await runSync(options.argv ?? [], {
      env,
      stdout: sink(),
      stderr: sink(),
      config,
      readManifest: async () => served,
      fetchWorker: false,
      lint: false,
      eventTypes: types,
      createApi: (account, clientOptions) => {
        const failing = outage && (account.name === accountName(1) || account.name === accountName(2));
        return accountApi({
          ...account,
          ...clientOptions,
          fetch: async (input, init) => {
            const answer = await fetch(input, init);
            if (!failing) healthyDoneMs = Math.max(healthyDoneMs, performance.now() - started);
            return answer;
          },
        });
      },
    });
    const wallMs = performance.now() - started;
    const statuses = statusCounts(reports);
    const names = platform.state.accounts.flatMap((a) => [...a.functions.values()].map((f) => `${a.id}/${f.name}`));
    results.push({
      keys,
      scenario,
      accounts,
      latencyMs: options.latencyMs,
      reads,
      writes,
      rateLimited,
      wallMs,
      healthyDoneMs,
      exitCode,
      statuses,
      records: names.length,
      duplicates: names.length - new Set(names).size,
    });
  };
  try {
    if (outage) await run('one 503, one 401');
    else if (options.faults === 'lossy') await run('first, answers lost, 429s, 5xx');
    else {
      await run('first');
      await run('no-op');
    }
  } finally {
    await platform.close();
    await broken?.close();
    await worker?.close();
  }
  return results;
};
