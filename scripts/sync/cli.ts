// `npm run sync`: flags, accounts, manifest, then each account in turn (plan, apply, report); one
// account's failure never stops the others. Everything it touches comes in through `SyncIo`, so
// tests run it in-process against the emulator. Run directly, it reads .env at the project's root
// (variables already set win) and exits with the run's code.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  ACCOUNTS_FILE,
  type AccountsConfig,
  accountApi,
  ConfigError,
  loadAccountsConfig,
  type ResolvedAccount,
  resolveSync,
} from './accounts.ts';
import { type FunctionsApi, syncAccount } from './apply.ts';
import { HELP, parseSyncArgs } from './args.ts';
import { desiredFunctions, PROJECT_ROOT, readManifest, type ServedFunction, selectFunctions } from './manifest.ts';
import { paintFor, plain } from './paint.ts';
import { createProgress } from './progress.ts';
import { renderPlan, renderResult, statusLine } from './render.ts';
import { type AccountReport, emptyReport, exitCodeOf, reportJson } from './report.ts';

export interface SyncIo {
  env: Record<string, string | undefined>;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Project root: where the accounts file and the Worker are (default: this repository). */
  root?: string;
  /** The accounts, instead of reading the accounts file (the dev loop syncs to the local platform). */
  config?: AccountsConfig;
  /** Reads what the Worker serves (default: start it with wrangler and GET /functions). */
  readManifest?: (secret: string) => Promise<ServedFunction[]>;
  /** The platform API of one account (default: the platform client with real fetch). */
  createApi?: (account: ResolvedAccount) => { api: FunctionsApi; requests?: { reads: number; writes: number } };
  maxRounds?: number;
  roundDelayMs?: number;
}

export interface SyncRun {
  exitCode: number;
  reports: AccountReport[];
}

/**
 * Runs the sync command; never throws for expected problems, it prints them and returns the exit code.
 * @example process.exitCode = (await runSync(process.argv.slice(2), { env: process.env, stdout: process.stdout, stderr: process.stderr })).exitCode
 */
export const runSync = async (argv: string[], io: SyncIo): Promise<SyncRun> => {
  let json = argv.includes('--json');
  const fail = (problems: string[]): SyncRun => {
    for (const line of problems) io.stderr.write(`${line}\n`);
    if (json) io.stdout.write(`${JSON.stringify({ ok: false, problems, accounts: [], exitCode: 1 }, null, 2)}\n`);
    return { exitCode: 1, reports: [] };
  };
  let args: ReturnType<typeof parseSyncArgs>;
  try {
    args = parseSyncArgs(argv);
  } catch (error) {
    // parseArgs' own wording suggests positionals; only the first sentence helps here.
    return fail([`${(error as Error).message.split('. ')[0]?.replace(/\.$/, '')}. See npm run sync -- --help.`]);
  }
  json = args.json;
  if (args.help) {
    io.stdout.write(HELP);
    return { exitCode: 0, reports: [] };
  }
  const root = io.root ?? PROJECT_ROOT;
  const out = (text: string) => {
    if (!json) io.stdout.write(`${text}\n`);
  };
  const paint = json ? plain : paintFor(io.stdout);

  let resolved: ReturnType<typeof resolveSync>;
  try {
    const config =
      io.config ?? loadAccountsConfig(args.accounts ?? join(root, ACCOUNTS_FILE), args.accounts !== undefined);
    resolved = resolveSync(config, io.env, args.account);
  } catch (error) {
    if (error instanceof ConfigError) return fail([error.message]);
    throw error;
  }
  if (resolved.problems.length > 0) return fail([...resolved.problems, 'See npm run sync -- --help.']);
  const { functionsBaseUrl: origin, functionsSecret: secret } = resolved.sync;

  let served: ServedFunction[];
  try {
    served = await (io.readManifest ?? ((s) => readManifest({ secret: s, root })))(secret);
  } catch (error) {
    return fail([`Could not read the functions from the Worker: ${(error as Error).message}`]);
  }
  const names = new Set(served.map((fn) => fn.name));
  const unknown = (args.only ?? []).filter((name) => !names.has(name));
  // With --prune, --only may name a function already gone from functions/ (to delete it).
  if (unknown.length > 0 && !args.prune) {
    return fail([`--only names no function in functions/: ${unknown.join(', ')}. Served: ${[...names].join(', ')}.`]);
  }
  const desired = selectFunctions(await desiredFunctions(served, origin, secret), args.only);
  const scope = args.only ? new Set(args.only) : undefined;

  const reports: AccountReport[] = [];
  const documents: ReturnType<typeof reportJson>[] = [];
  for (const account of resolved.accounts) {
    const missing = (account.functions ?? []).filter((name) => !names.has(name));
    if (missing.length > 0) {
      const report: AccountReport = {
        ...emptyReport(account.name, account.baseUrl, 'failed'),
        error: {
          kind: 'error',
          message: `its "functions" list names functions not in functions/: ${missing.join(', ')}`,
        },
      };
      reports.push(report);
      documents.push(reportJson(report));
      out(`Account "${account.name}": ${statusLine(report, paint)}`);
      continue;
    }
    const { api, requests } = (io.createApi ?? accountApi)(account);
    const progress = createProgress(io.stderr, account.name);
    const report = await syncAccount({
      account: account.name,
      baseUrl: account.baseUrl,
      api,
      desired: selectFunctions(desired, account.functions),
      origin,
      prune: args.prune,
      dryRun: args.dryRun,
      concurrency: args.concurrency,
      ...(scope ? { scope } : {}),
      ...(io.maxRounds !== undefined ? { maxRounds: io.maxRounds } : {}),
      ...(io.roundDelayMs !== undefined ? { roundDelayMs: io.roundDelayMs } : {}),
      onPlan: (plan) => out(renderPlan(account.name, account.baseUrl, plan, paint)),
      onStep: (_outcome, done, total) => {
        if (!json) progress.step(done, total);
      },
    });
    progress.end();
    reports.push(report);
    documents.push(reportJson(report, requests));
    if (!report.plan || !args.dryRun) out(renderResult(report, paint));
    out('');
  }

  const exitCode = exitCodeOf(reports, args.dryRun, args.exitCode);
  if (json) {
    const document = {
      ok: exitCode === 0 || exitCode === 2,
      dryRun: args.dryRun,
      prune: args.prune,
      only: args.only ?? null,
      functions: [...names],
      accounts: documents,
      exitCode,
    };
    io.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  } else {
    out(paint.bold(args.dryRun ? 'Summary (dry run, nothing written):' : 'Summary:'));
    for (const report of reports) out(`  ${report.account}: ${statusLine(report, paint)}`);
  }
  return { exitCode, reports };
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const dotenv = join(PROJECT_ROOT, '.env');
  if (existsSync(dotenv)) process.loadEnvFile(dotenv);
  const { exitCode } = await runSync(process.argv.slice(2), {
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
  });
  process.exitCode = exitCode;
}
