// One sync run (`npm run sync`, dev's registration, `npm run accounts -- add`): flags, accounts,
// manifest, then the accounts several at once (plan, apply, report each); one account's failure
// never stops or delays the others. Everything it touches comes in through `SyncIo`, so tests run
// it in-process against the emulator. The command itself (.env, exit code) is scripts/sync/main.ts.
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { RetryInfo } from 'agent-functions/platform';
import type { CommandIo } from '../io.ts';
import { lintFunctions } from '../lint/index.ts';
import { toLintFunction } from '../lint/load.ts';
import type { LintReport } from '../lint/types.ts';
import {
  type AccountsConfig,
  accountsFileFor,
  ConfigError,
  loadAccountsConfig,
  resolveSync,
  type SyncAccount,
} from '../project/accounts.ts';
import { eventTypes } from '../project/generated.ts';
import { readManifest, type ServedFunction } from '../project/manifest.ts';
import { projectRoot } from '../project/paths.ts';
import { assertSettings } from '../project/settingsSchema.ts';
import { PLACEHOLDER_DESCRIPTION } from '../project/templates.ts';
import { type AccountResult, type RunContext, syncOne } from './account.ts';
import type { AccountApi } from './accountApi.ts';
import { HELP, parseSyncArgs, type SyncArgs } from './args.ts';
import { paintFor, plain } from './paint.ts';
import { pool } from './pool.ts';
import { createProgress } from './progress.ts';
import { statusLine } from './render.ts';
import { type AccountReport, exitCodeOf } from './report.ts';
import { checkWorker, type WorkerCheck } from './workerCheck.ts';

/** The rules and confusable siblings on the served functions (golden prompts are npm test's part). */
const lintServed = (served: ServedFunction[]): LintReport => lintFunctions(served.map(toLintFunction));

export interface SyncIo extends CommandIo {
  /** What the run's first line calls the target (default: "Environment <--env or production>"; dev: the local platform). */
  heading?: string;
  /** The accounts, instead of reading the accounts file (the dev loop syncs to the local platform). */
  config?: AccountsConfig;
  /** Reads what the Worker serves (default: start it with wrangler and GET /functions). */
  readManifest?: (secret: string) => Promise<ServedFunction[]>;
  /** The platform API of one account (default: the platform client with real fetch). */
  createApi?: (
    account: SyncAccount,
    options: { maxResponseBytes: number; onRetry: (info: RetryInfo) => void },
  ) => AccountApi;
  /**
   * GETs the deployed Worker's manifest after applying (default: global fetch; scripts/sync/workerCheck.ts);
   * false skips the check (dev, whose Worker in development mode serves its manifest to anyone).
   */
  fetchWorker?: typeof fetch | false;
  /** The pause before a refusal of the Worker is read again (default: workerCheck.ts's 2 s). */
  confirmAfterMs?: number;
  /**
   * The description linter on what the model will read (default: on; errors stop the run, warnings
   * are shown); false skips it (the dev loop shows findings in its console instead).
   */
  lint?: false | ((served: ServedFunction[]) => LintReport);
  /** The event types to subscribe the webhook to (default: the files in events/). */
  eventTypes?: string[];
  maxRounds?: number;
  roundDelayMs?: number;
}

export interface SyncRun {
  exitCode: number;
  reports: AccountReport[];
}

/** How a run reports a problem that stops it: on stderr, and as a --json document when asked. */
type Fail = (problems: string[]) => SyncRun;

/** Parsed flags, or the run's result when they end it (a parse error, or --help). */
const argsOrEnd = (argv: string[], io: SyncIo, fail: Fail): SyncArgs | SyncRun => {
  let args: SyncArgs;
  try {
    args = parseSyncArgs(argv);
  } catch (error) {
    // parseArgs' own wording suggests positionals; only the first sentence helps here.
    return fail([`${(error as Error).message.split('. ')[0]?.replace(/\.$/, '')}. See npm run sync -- --help.`]);
  }
  if (args.help) {
    io.stdout.write(HELP);
    return { exitCode: 0, reports: [] };
  }
  return args;
};

/** The run's accounts and Worker settings, or the problems that stop the run (the Worker's origin or secret missing). */
const resolveAccounts = async (
  args: SyncArgs,
  io: SyncIo,
  root: string,
): Promise<Awaited<ReturnType<typeof resolveSync>> | string[]> => {
  let resolved: Awaited<ReturnType<typeof resolveSync>>;
  try {
    const [file, required] = accountsFileOf(args, root);
    const config = io.config ?? loadAccountsConfig(file, required);
    // Each account's settings against the project's schema (lib/settings.ts), before anything is written.
    if (!io.config) await assertSettings(root, config, relative(root, file) || file);
    resolved = await resolveSync(config, io.env, args.account);
  } catch (error) {
    if (error instanceof ConfigError) return [error.message];
    throw error;
  }
  // The Worker's origin or secret missing stops the run; an account's own variable stops that account.
  if (resolved.runProblems.length === 0) return resolved;
  // Where the settings go, when the file that holds them is not there at all.
  const envFile = args.env ? `.env.${args.env}` : '.env';
  const copy = existsSync(join(root, envFile))
    ? []
    : [`No ${envFile} in ${root}: cp .env.example ${envFile}, then fill it in (or set these variables).`];
  return [...resolved.problems, ...copy, 'See npm run sync -- --help.'];
};

/**
 * The problems in what the Worker serves that stop the run before any write: scaffold placeholders,
 * the linter's errors (its warnings go to stderr), and --only naming no served function (unless --prune).
 */
export const servedProblems = (
  served: ServedFunction[],
  args: Pick<SyncArgs, 'only' | 'prune'>,
  lint: SyncIo['lint'],
  stderr: NodeJS.WritableStream,
): string[] => {
  const unwritten = served.filter((fn) => fn.description.includes(PLACEHOLDER_DESCRIPTION)).map((fn) => fn.name);
  if (unwritten.length > 0) {
    return [
      `Still the scaffold's placeholder description: ${unwritten.map((name) => `functions/${name}.ts`).join(', ')}. Write what each function does and when the agent should call it; nothing was synced.`,
    ];
  }
  if (lint !== false) {
    const report = (lint ?? lintServed)(served);
    const lines = (severity: string) =>
      report.findings
        .filter((f) => f.severity === severity)
        .map((f) => `${severity} ${f.function}${f.parameter ? `.${f.parameter}` : ''} [${f.rule}] ${f.message}`);
    for (const line of lines('warning')) stderr.write(`${line}\n`);
    if (report.errors > 0) {
      return [
        ...lines('error'),
        `${report.errors} error(s) in what the model reads; nothing was synced. npm run lint:functions shows each with its fix (docs/descriptions.md).`,
      ];
    }
  }
  const names = new Set(served.map((fn) => fn.name));
  const unknown = (args.only ?? []).filter((name) => !names.has(name));
  // With --prune, --only may name a function already gone from functions/ (to delete it).
  if (unknown.length > 0 && !args.prune) {
    return [`--only names no function in functions/: ${unknown.join(', ')}. Served: ${[...names].join(', ')}.`];
  }
  return [];
};

/**
 * Accounts run side by side, `--account-concurrency` at a time: each has its own key and rate
 * limit, so one slow or failing account holds up no other. What one account prints is kept
 * together and printed when it ends; the result keeps the accounts file's order.
 */
const syncAccounts = async (run: RunContext, accounts: SyncAccount[], stdout: NodeJS.WritableStream, json: boolean) => {
  const { progress } = run;
  const results: AccountResult[] = [];
  await pool(accounts, run.args.accountConcurrency, async (account, index) => {
    progress.started();
    const started = performance.now();
    const lines: string[] = [];
    const put = (text: string) => {
      if (!json) lines.push(text);
    };
    const result = await syncOne(run, account, put);
    const durationMs = Math.round(performance.now() - started);
    results[index] = { ...result, documents: result.documents.map((document) => ({ ...document, durationMs })) };
    progress.finished(result.reports.some((report) => report.status === 'failed' || report.status === 'not-converged'));
    if (lines.length > 0) progress.print(stdout, `${lines.join('\n')}\n`);
    return undefined;
  });
  progress.end();
  return {
    reports: results.flatMap((result) => result.reports),
    documents: results.flatMap((result) => result.documents),
  };
};

/** Registered (or, with --status, found registered): do the urls' keys open the deployed Worker? Printed, and returned. */
const checkDeployed = async (
  run: RunContext,
  io: SyncIo,
  reports: AccountReport[],
  out: (text: string) => void,
): Promise<WorkerCheck | undefined> => {
  const { args, paint } = run;
  if (io.fetchWorker === false || (args.dryRun && !args.status) || !reports.some((report) => report.plan))
    return undefined;
  const worker = await checkWorker(run.origin, run.secret, run.served, {
    env: args.env,
    ...(io.fetchWorker ? { fetchWorker: io.fetchWorker } : {}),
    ...(io.confirmAfterMs !== undefined ? { confirmAfterMs: io.confirmAfterMs } : {}),
  });
  if (worker.verdict === 'accepted') out(paint.green(worker.message));
  else io.stderr.write(`${worker.verdict === 'refused' ? paint.red(worker.message) : paint.yellow(worker.message)}\n`);
  out('');
  return worker;
};

/** The run's last words: the --json document, or a summary line per account. */
const printSummary = (
  run: RunContext,
  io: SyncIo,
  json: boolean,
  ended: { exitCode: number; worker: WorkerCheck | undefined; reports: AccountReport[]; documents: unknown[] },
  out: (text: string) => void,
) => {
  const { args, paint } = run;
  if (json) {
    const document = {
      ok: ended.exitCode === 0 || ended.exitCode === 2,
      env: args.env ?? 'production',
      origin: run.origin,
      worker: ended.worker ?? null,
      dryRun: run.dryRun,
      prune: args.prune,
      only: args.only ?? null,
      functions: [...run.names],
      accounts: ended.documents,
      exitCode: ended.exitCode,
    };
    io.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
    return;
  }
  out(paint.bold(run.dryRun ? 'Summary (dry run, nothing written):' : 'Summary:'));
  for (const report of ended.reports) out(`  ${report.account}: ${statusLine(report, paint)}`);
};

/**
 * Runs the sync command; never throws for expected problems, it prints them and returns the exit code.
 * @example process.exitCode = (await runSync(process.argv.slice(2), { env: process.env, stdout: process.stdout, stderr: process.stderr })).exitCode
 */
export const runSync = async (argv: string[], io: SyncIo): Promise<SyncRun> => {
  let json = argv.includes('--json');
  const fail: Fail = (problems) => {
    for (const line of problems) io.stderr.write(`${line}\n`);
    if (json) io.stdout.write(`${JSON.stringify({ ok: false, problems, accounts: [], exitCode: 1 }, null, 2)}\n`);
    return { exitCode: 1, reports: [] };
  };
  const args = argsOrEnd(argv, io, fail);
  if ('reports' in args) return args;
  json = args.json;
  const root = io.root ?? projectRoot();
  const out = (text: string) => {
    if (!json) io.stdout.write(`${text}\n`);
  };
  const paint = json ? plain : paintFor(io.stdout);

  const resolved = await resolveAccounts(args, io, root);
  if (Array.isArray(resolved)) return fail(resolved);
  for (const line of resolved.problems) io.stderr.write(`${line}\n`);
  const { functionsBaseUrl: origin, functionsSecret: secret } = resolved.sync;
  const dryRun = args.dryRun || args.status;
  out(
    paint.dim(
      `${io.heading ?? `Environment ${args.env ?? 'production'}`}: functions at ${origin}${args.adopt.length ? `, adopting those of ${args.adopt.join(', ')}` : ''}${args.status ? ' (status, nothing written)' : ''}`,
    ),
  );

  let served: ServedFunction[];
  try {
    served = await (io.readManifest ?? ((s) => readManifest({ secret: s, root })))(secret);
  } catch (error) {
    return fail([`Could not read the functions from the Worker: ${(error as Error).message}`]);
  }
  const problems = servedProblems(served, args, io.lint, io.stderr);
  if (problems.length > 0) return fail(problems);
  const run: RunContext = {
    args,
    stderr: io.stderr,
    createApi: io.createApi,
    maxRounds: io.maxRounds,
    roundDelayMs: io.roundDelayMs,
    paint,
    progress: createProgress(io.stderr, resolved.accounts.length, json),
    served,
    names: new Set(served.map((fn) => fn.name)),
    origin,
    secret,
    dryRun,
    scope: args.only ? new Set(args.only) : undefined,
    types: io.eventTypes ?? eventTypes(join(root, 'events')),
  };
  const { reports, documents } = await syncAccounts(run, resolved.accounts, io.stdout, json);
  const worker = await checkDeployed(run, io, reports, out);
  const exitCode = worker?.verdict === 'refused' ? 1 : exitCodeOf(reports, dryRun, args.exitCode);
  printSummary(run, io, json, { exitCode, worker, reports, documents }, out);
  return { exitCode, reports };
};

/** The accounts file of a run: --accounts, else platform.accounts.NAME.json for --env NAME when it exists. */
const accountsFileOf = (args: SyncArgs, root: string): [string, boolean] =>
  args.accounts ? [args.accounts, true] : [accountsFileFor(root, args.env), false];
