// One sync run (`npm run sync`, dev's registration, `npm run accounts -- add`): flags, accounts,
// manifest, then the accounts several at once (plan, apply, report each); one account's failure
// never stops or delays the others. Everything it touches comes in through `SyncIo`, so tests run
// it in-process against the emulator. The command itself (.env, exit code) is scripts/sync/main.ts.
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { RetryInfo } from 'agent-functions/platform';
import { lintFunctions } from '../descriptions/index.ts';
import { toLintFunction } from '../descriptions/load.ts';
import type { LintReport } from '../descriptions/types.ts';
import type { CommandIo } from '../io.ts';
import {
  type AccountsConfig,
  accountsFileFor,
  ConfigError,
  loadAccountsConfig,
  type ResolvedAccount,
  resolveSync,
} from '../project/accounts.ts';
import { eventTypes } from '../project/generated.ts';
import { desiredFunctions, readManifest, type ServedFunction, selectFunctions } from '../project/manifest.ts';
import { projectRoot } from '../project/paths.ts';
import { assertSettings } from '../project/settingsSchema.ts';
import { PLACEHOLDER_DESCRIPTION } from '../project/templates.ts';
import { type AccountApi, accountApi } from './accountApi.ts';
import { syncAccount } from './apply.ts';
import { HELP, parseSyncArgs, type SyncArgs } from './args.ts';
import { paintFor, plain } from './paint.ts';
import { pool } from './pool.ts';
import { createProgress } from './progress.ts';
import { renderPlan, renderResult, renderStatus, statusLine } from './render.ts';
import { type AccountReport, emptyReport, exitCodeOf, reportJson } from './report.ts';
import { desiredWebhook, webhookApi } from './webhook.ts';
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
    account: ResolvedAccount,
    options: { maxResponseBytes: number; onRetry: (info: RetryInfo) => void },
  ) => AccountApi;
  /**
   * GETs the deployed Worker's manifest after applying (default: global fetch; scripts/registration/workerCheck.ts);
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
  const root = io.root ?? projectRoot();
  const out = (text: string) => {
    if (!json) io.stdout.write(`${text}\n`);
  };
  const paint = json ? plain : paintFor(io.stdout);

  let resolved: Awaited<ReturnType<typeof resolveSync>>;
  try {
    const [file, required] = accountsFileOf(args, root);
    const config = io.config ?? loadAccountsConfig(file, required);
    // Each account's settings against the project's schema (lib/settings.ts), before anything is written.
    if (!io.config) await assertSettings(root, config, relative(root, file) || file);
    resolved = await resolveSync(config, io.env, args.account);
  } catch (error) {
    if (error instanceof ConfigError) return fail([error.message]);
    throw error;
  }
  // The Worker's origin or secret missing stops the run; an account's own variable stops that account.
  if (resolved.runProblems.length > 0) {
    // Where the settings go, when the file that holds them is not there at all.
    const envFile = args.env ? `.env.${args.env}` : '.env';
    const copy = existsSync(join(root, envFile))
      ? []
      : [`No ${envFile} in ${root}: cp .env.example ${envFile}, then fill it in (or set these variables).`];
    return fail([...resolved.problems, ...copy, 'See npm run sync -- --help.']);
  }
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
  const unwritten = served.filter((fn) => fn.description.includes(PLACEHOLDER_DESCRIPTION)).map((fn) => fn.name);
  if (unwritten.length > 0) {
    return fail([
      `Still the scaffold's placeholder description: ${unwritten.map((name) => `functions/${name}.ts`).join(', ')}. Write what each function does and when the agent should call it; nothing was synced.`,
    ]);
  }
  if (io.lint !== false) {
    const report = (io.lint ?? lintServed)(served);
    const lines = (severity: string) =>
      report.findings
        .filter((f) => f.severity === severity)
        .map((f) => `${severity} ${f.function}${f.parameter ? `.${f.parameter}` : ''} [${f.rule}] ${f.message}`);
    for (const line of lines('warning')) io.stderr.write(`${line}\n`);
    if (report.errors > 0) {
      return fail([
        ...lines('error'),
        `${report.errors} error(s) in what the model reads; nothing was synced. npm run lint:functions shows each with its fix (docs/descriptions.md).`,
      ]);
    }
  }
  const names = new Set(served.map((fn) => fn.name));
  const unknown = (args.only ?? []).filter((name) => !names.has(name));
  // With --prune, --only may name a function already gone from functions/ (to delete it).
  if (unknown.length > 0 && !args.prune) {
    return fail([`--only names no function in functions/: ${unknown.join(', ')}. Served: ${[...names].join(', ')}.`]);
  }
  const scope = args.only ? new Set(args.only) : undefined;
  const types = io.eventTypes ?? eventTypes(join(root, 'events'));
  const progress = createProgress(io.stderr, resolved.accounts.length, json);

  /** One account: its functions, then its events webhook; what it prints goes to `out`. */
  const syncOne = async (
    account: ResolvedAccount,
    out: (text: string) => void,
  ): Promise<{ reports: AccountReport[]; documents: ReturnType<typeof reportJson>[] }> => {
    const reports: AccountReport[] = [];
    const documents: ReturnType<typeof reportJson>[] = [];
    const missing = (account.functions ?? []).filter((name) => !names.has(name));
    const problem =
      account.problems.length > 0
        ? account.problems.join(' ')
        : missing.length > 0
          ? `its "functions" list names functions not in functions/: ${missing.join(', ')}`
          : undefined;
    if (problem) {
      const report: AccountReport = {
        ...emptyReport(account.name, account.baseUrl, 'failed'),
        error: { kind: 'error', message: problem },
      };
      reports.push(report);
      documents.push(reportJson(report));
      out(`Account "${account.name}": ${statusLine(report, paint)}`);
      return { reports, documents };
    }
    const say = (text: string) => progress.print(io.stderr, `[${account.name}] ${text}\n`);
    const onRetry = (info: RetryInfo) =>
      say(
        `${info.method} ${info.path} ${info.reason}; attempt ${info.attempt} of ${info.of} in ${(info.waitMs / 1000).toFixed(1)} s`,
      );
    const clientOptions = { maxResponseBytes: args.maxResponseBytes, onRetry };
    const { api, requests, webhooks } = io.createApi
      ? io.createApi(account, clientOptions)
      : accountApi({ ...account, ...clientOptions });
    // The first account's urls keep the section-4 form; every other's name the account (§10).
    const desired = selectFunctions(
      selectFunctions(await desiredFunctions(served, origin, secret, account.urlAccount), args.only),
      account.functions,
    );
    const report = await syncAccount({
      account: account.name,
      ownAccount: account.name,
      baseUrl: account.baseUrl,
      api,
      desired,
      origin,
      prune: args.prune && !args.status,
      dryRun,
      concurrency: args.concurrency,
      adopt: args.adopt,
      onWait: say,
      ...(scope ? { scope } : {}),
      ...(io.maxRounds !== undefined ? { maxRounds: io.maxRounds } : {}),
      ...(io.roundDelayMs !== undefined ? { roundDelayMs: io.roundDelayMs } : {}),
      onPlan: (plan) => out((args.status ? renderStatus : renderPlan)(account.name, account.baseUrl, plan, paint)),
      onStep: () => progress.wrote(),
    });
    reports.push(report);
    documents.push(reportJson(report, requests));
    if (!report.plan || !dryRun) out(renderResult(report, paint));
    out('');
    // The events webhook, through the same plan and apply (webhook.ts): only when there are events
    // to subscribe to, or with --prune to remove ours; never under --only, which names functions.
    if (webhooks && !scope && (types.length > 0 || args.prune)) {
      const name = `${account.name} (events webhook)`;
      const hook = await syncAccount({
        account: name,
        baseUrl: account.baseUrl,
        api: webhookApi(webhooks, [origin, ...args.adopt], account.name),
        desired: desiredWebhook(origin, account.eventsPath, types),
        origin,
        prune: args.prune && !args.status,
        dryRun,
        adopt: args.adopt,
        onWait: say,
        onStep: () => progress.wrote(),
        ...(io.maxRounds !== undefined ? { maxRounds: io.maxRounds } : {}),
        ...(io.roundDelayMs !== undefined ? { roundDelayMs: io.roundDelayMs } : {}),
        // Without events, --prune only looks for ours: nothing found is nothing to report.
        onPlan: (plan) => {
          if (types.length > 0 || plan.entries.length > 0) {
            out(
              args.status
                ? renderStatus(name, account.baseUrl, plan, paint, 'webhook')
                : renderPlan(name, account.baseUrl, plan, paint),
            );
          }
        },
      });
      if (types.length > 0 || hook.error || (hook.plan?.entries.length ?? 0) > 0) {
        reports.push(hook);
        documents.push(reportJson(hook));
        if (!hook.plan || !dryRun) out(renderResult(hook, paint));
        out('');
      }
    }
    return { reports, documents };
  };

  // Accounts run side by side, `--account-concurrency` at a time: each has its own key and rate
  // limit, so one slow or failing account holds up no other. What one account prints is kept
  // together and printed when it ends; the summary and --json keep the accounts file's order.
  const results: Array<{ reports: AccountReport[]; documents: ReturnType<typeof reportJson>[] }> = [];
  await pool(resolved.accounts, args.accountConcurrency, async (account, index) => {
    progress.started();
    const started = performance.now();
    const lines: string[] = [];
    const put = (text: string) => {
      if (!json) lines.push(text);
    };
    const result = await syncOne(account, put);
    const durationMs = Math.round(performance.now() - started);
    results[index] = { ...result, documents: result.documents.map((document) => ({ ...document, durationMs })) };
    progress.finished(result.reports.some((report) => report.status === 'failed' || report.status === 'not-converged'));
    if (lines.length > 0) progress.print(io.stdout, `${lines.join('\n')}\n`);
    return undefined;
  });
  progress.end();
  const reports = results.flatMap((result) => result.reports);
  const documents = results.flatMap((result) => result.documents);

  // Registered (or, with --status, found registered): do the urls' keys open the deployed Worker?
  let worker: WorkerCheck | undefined;
  if (io.fetchWorker !== false && (!args.dryRun || args.status) && reports.some((report) => report.plan)) {
    worker = await checkWorker(origin, secret, served, {
      env: args.env,
      ...(io.fetchWorker ? { fetchWorker: io.fetchWorker } : {}),
      ...(io.confirmAfterMs !== undefined ? { confirmAfterMs: io.confirmAfterMs } : {}),
    });
    if (worker.verdict === 'accepted') out(paint.green(worker.message));
    else
      io.stderr.write(`${worker.verdict === 'refused' ? paint.red(worker.message) : paint.yellow(worker.message)}\n`);
    out('');
  }
  const refused = worker?.verdict === 'refused';
  const exitCode = refused ? 1 : exitCodeOf(reports, dryRun, args.exitCode);
  if (json) {
    const document = {
      ok: exitCode === 0 || exitCode === 2,
      env: args.env ?? 'production',
      origin,
      worker: worker ?? null,
      dryRun,
      prune: args.prune,
      only: args.only ?? null,
      functions: [...names],
      accounts: documents,
      exitCode,
    };
    io.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  } else {
    out(paint.bold(dryRun ? 'Summary (dry run, nothing written):' : 'Summary:'));
    for (const report of reports) out(`  ${report.account}: ${statusLine(report, paint)}`);
  }
  return { exitCode, reports };
};

/** The accounts file of a run: --accounts, else platform.accounts.NAME.json for --env NAME when it exists. */
const accountsFileOf = (args: SyncArgs, root: string): [string, boolean] =>
  args.accounts ? [args.accounts, true] : [accountsFileFor(root, args.env), false];
