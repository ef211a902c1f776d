// `npm run accounts -- import <file>`: onboards many clients in one command (docs/sync-and-accounts.md
// "Importing clients"). Each row's key is checked with its platform and stored in the Worker's
// account store with its address and settings (a few requests at once), the accounts file records
// the account by name, and one sync
// registers the functions on every account stored. Idempotent: the store writes nothing for a
// record it already holds and the file is rewritten only when it changes, so a second run (or one
// resumed after a stop) changes nothing it already did. Keys come from the file or standard input
// (`-`), never from the command line, and are never printed.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Writable } from 'node:stream';
import { createPlatformClient } from 'agent-functions/platform';
import type { StoreClient } from '../project/accountStore.ts';
import { type AccountConfig, loadAccountsConfig } from '../project/accounts.ts';
import { paintFor } from '../sync/paint.ts';
import { pool } from '../sync/pool.ts';
import { createProgress } from '../sync/progress.ts';
import { addAccountsToFile } from './file.ts';
import { type ImportRow, type RowProblem, type RowProblemKind, readImportRows } from './importRows.ts';
import { type Run, syncOne, UsageError, workerOf } from './run.ts';

/** What became of one row. */
export type RowOutcome =
  | { name: string; at: string; outcome: 'stored' | 'unchanged' }
  | (RowProblem & { outcome: 'failed' });

/** Requests to the platforms and the account store in flight at once (--concurrency). */
export const IMPORT_CONCURRENCY = 8;

const readAll = async (stream: NodeJS.ReadableStream): Promise<string> => {
  let text = '';
  for await (const chunk of stream) text += String(chunk);
  return text;
};

/** Why the platform at `baseUrl` does not take `key` (one list request), or undefined when it does. */
const keyProblem = async (
  row: ImportRow,
  baseUrl: string,
): Promise<{ kind: RowProblemKind; problem: string } | undefined> => {
  const client = createPlatformClient({
    baseUrl,
    apiKey: row.key,
    retry: { retries: 1, baseDelayMs: 200, maxDelayMs: 1000 },
  });
  try {
    await client.customFunctions.list();
    return undefined;
  } catch (error) {
    const status = (error as { status?: number }).status;
    if (status === 401 || status === 403)
      return { kind: 'bad key', problem: `the platform at ${baseUrl} refused its key (${status})` };
    if (status === undefined || status === 404) {
      return { kind: 'unknown address', problem: `no platform answered at ${baseUrl}` };
    }
    return { kind: 'not stored', problem: `the platform at ${baseUrl} answered ${status}; run the import again later` };
  }
};

/** Checks and stores one row; never throws for the row's own problems. */
const importRow = async (
  row: ImportRow,
  store: StoreClient,
  defaultBaseUrl: string | undefined,
): Promise<RowOutcome> => {
  const fail = (kind: RowProblemKind, problem: string): RowOutcome => ({
    at: row.at,
    name: row.name,
    kind,
    problem,
    outcome: 'failed',
  });
  const baseUrl = row.baseUrl ?? defaultBaseUrl;
  if (!baseUrl) return fail('unknown address', 'no base url in the row, and PLATFORM_BASE_URL is not set');
  const refused = await keyProblem(row, baseUrl);
  if (refused) return fail(refused.kind, refused.problem);
  try {
    const summary = await store.put(row.name, {
      apiKey: row.key,
      ...(row.baseUrl ? { baseUrl: row.baseUrl } : {}),
      ...(row.settings ? { settings: row.settings } : {}),
    });
    return { name: row.name, at: row.at, outcome: summary.changed === false ? 'unchanged' : 'stored' };
  } catch (error) {
    return fail('not stored', (error as Error).message);
  }
};

/** The rows' names the accounts file already gives a variable key: importing them would shadow it. */
const clashes = (run: Run, rows: ImportRow[]): RowProblem[] =>
  rows.flatMap((row) => {
    const known = run.config.accounts.find((account) => account.name === row.name);
    return known?.apiKeyEnv
      ? [
          {
            at: row.at,
            name: row.name,
            kind: 'duplicate name' as const,
            problem: `${run.source} already has it, with its key in the variable ${known.apiKeyEnv}`,
          },
        ]
      : [];
  });

/** Stores every row (a few at once), with progress on a terminal; the outcome of each, in file order. */
const storeRows = async (
  run: Run,
  rows: ImportRow[],
  store: StoreClient,
  concurrency: number,
): Promise<RowOutcome[]> => {
  const progress = createProgress(run.io.stderr, rows.length, Boolean(run.flags.json));
  const outcomes: RowOutcome[] = new Array(rows.length);
  const defaultBaseUrl = run.io.env.PLATFORM_BASE_URL?.trim() || undefined;
  try {
    await pool(rows, concurrency, async (row, i) => {
      progress.started();
      const outcome = await importRow(row, store, defaultBaseUrl);
      outcomes[i] = outcome;
      if (outcome.outcome === 'stored') progress.wrote();
      progress.finished(outcome.outcome === 'failed');
      return undefined;
    });
  } finally {
    progress.end();
  }
  return outcomes;
};

/** What the import reads of sync's --json document. */
interface SyncDocument {
  accounts: {
    account: string;
    status: string;
    error: { message?: string } | null;
    requests: { writes: number } | null;
  }[];
}

/** Registers the functions on every stored row's account: one sync, with the keys this run holds (not the relay). */
const syncStored = async (run: Run, rows: ImportRow[]): Promise<{ exitCode: number; report?: SyncDocument }> => {
  const held: Record<string, string> = {};
  const direct = new Map<string, AccountConfig>();
  rows.forEach((row, i) => {
    const variable = `AGENT_FUNCTIONS_IMPORT_KEY_${i}`;
    held[variable] = row.key;
    const baseUrl = row.baseUrl ?? run.io.env.PLATFORM_BASE_URL?.trim();
    direct.set(row.name, { name: row.name, apiKeyEnv: variable, ...(baseUrl ? { baseUrl } : {}) });
  });
  // The file as this import left it: the rows are in it now.
  const config = loadAccountsConfig(run.file);
  const accounts = config.accounts.map((account) => direct.get(account.name) ?? account);
  // Its one JSON document, summed up below: 500 accounts' plans would drown the import's own lines.
  let output = '';
  const captured = new Writable({
    write: (chunk, _encoding, done) => {
      output += String(chunk);
      done();
    },
  });
  if (!run.flags.json) run.io.stderr.write(`Registering the functions on ${rows.length} account(s)...\n`);
  const synced = await syncOne(run, rows.map((row) => row.name).join(','), ['--json'], {
    env: { ...run.io.env, ...held },
    config: { ...config, accounts },
    ...(run.io.createApi ? { createApi: run.io.createApi } : {}),
    stdout: captured,
  });
  let report: SyncDocument | undefined;
  try {
    report = JSON.parse(output) as SyncDocument;
  } catch {
    // No document: the exit code says it failed.
  }
  return { exitCode: synced.exitCode, ...(report ? { report } : {}) };
};

/** One line of what the sync did, and one per account it could not sync. */
const syncLines = (report: SyncDocument): string[] => {
  const failing = report.accounts.filter((account) => !['synced', 'in-sync'].includes(account.status));
  const writes = report.accounts.reduce((sum, account) => sum + (account.requests?.writes ?? 0), 0);
  // Each account's events webhook is reported beside it: count the accounts once.
  const accounts = new Set(report.accounts.map((account) => account.account.replace(/ \(events webhook\)$/, '')));
  const failed = new Set(failing.map((account) => account.account.replace(/ \(events webhook\)$/, '')));
  return [
    `Synced ${accounts.size - failed.size} of ${accounts.size} account(s): ${writes} write(s) to their platforms.`,
    ...failing.map(
      (account) =>
        `✗ ${account.account}: sync ${account.status}${account.error?.message ? `: ${account.error.message}` : ''}`,
    ),
  ];
};

/** Prints what the import did: each failing row by its account name, then the counts. */
const report = (run: Run, outcomes: RowOutcome[], path: string) => {
  const paint = paintFor(run.io.stdout);
  const count = (outcome: RowOutcome['outcome']) => outcomes.filter((row) => row.outcome === outcome).length;
  for (const row of outcomes) {
    if (row.outcome === 'failed')
      run.io.stdout.write(`${paint.red('✗')} ${row.name} (${row.at}): ${row.kind}: ${row.problem}\n`);
  }
  const failed = count('failed');
  run.io.stdout.write(
    `Imported ${outcomes.length - failed} of ${outcomes.length} account(s) from ${path}: ${count('stored')} stored, ${count('unchanged')} already stored${failed ? `, ${paint.red(`${failed} failed`)} (fix those rows and run the same command again: what is done stays done)` : ''}.\n`,
  );
};

/** Onboards every row of the file at `path` (`-`: standard input). */
export const importAccounts = async (run: Run, path: string): Promise<number> => {
  const { io, flags } = run;
  const concurrency = Number(flags.concurrency ?? IMPORT_CONCURRENCY);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) {
    throw new UsageError('--concurrency must be a whole number from 1 to 64.');
  }
  let text: string;
  try {
    text = path === '-' ? await readAll(io.stdin) : readFileSync(resolve(path), 'utf8');
  } catch (error) {
    throw new UsageError(
      `Could not read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`,
    );
  }
  let read: ReturnType<typeof readImportRows>;
  try {
    read = readImportRows(text, path);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const clashing = clashes(run, read.rows);
  const rows = read.rows.filter((row) => !clashing.some((clash) => clash.name === row.name));
  const { store } = workerOf(io);
  // A wrong secret or a Worker without a store fails every row alike: said once, before any row.
  await store.page({ limit: 1 });
  const stored = await storeRows(run, rows, store, concurrency);
  const done = rows.filter((_, i) => stored[i]?.outcome !== 'failed');
  // Names only: the key, address and settings are in the store, so the Worker's bundle does not grow.
  addAccountsToFile(
    run.file,
    done.map((row) => ({ name: row.name })),
    run.source,
  );
  const problems = [...read.problems, ...clashing].map((problem): RowOutcome => ({ ...problem, outcome: 'failed' }));
  const outcomes = [...stored, ...problems];
  const synced = flags['no-sync'] || done.length === 0 ? undefined : await syncStored(run, done);
  if (flags.json) {
    io.stdout.write(
      `${JSON.stringify({ file: path, accounts: outcomes, ...(synced?.report ? { sync: synced.report } : {}) }, null, 2)}\n`,
    );
  } else {
    if (synced?.report) for (const line of syncLines(synced.report)) io.stdout.write(`${line}\n`);
    report(run, outcomes, path);
  }
  const syncFailed = synced !== undefined && synced.exitCode !== 0 && synced.exitCode !== 2;
  if (syncFailed && !flags.json) {
    io.stderr.write(
      'The sync of the imported accounts did not finish: npm run sync finishes it (or run the import again).\n',
    );
  }
  return syncFailed || outcomes.some((row) => row.outcome === 'failed') ? 1 : 0;
};
