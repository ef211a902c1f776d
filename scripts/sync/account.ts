// One account of a sync run: its functions (plan, apply, report), then its events webhook through
// the same plan and apply (webhook.ts). What the whole run decided once (flags, served functions,
// event types) comes in as a `RunContext`; what the account prints goes to `out`.
import type { RetryInfo } from 'agent-functions/platform';
import type { SyncAccount } from '../project/accounts.ts';
import { desiredFunctions, type ServedFunction, selectFunctions } from '../project/manifest.ts';
import { type AccountApi, accountApi } from './accountApi.ts';
import { type SyncAccountOptions, syncAccount } from './apply.ts';
import type { SyncArgs } from './args.ts';
import type { Paint } from './paint.ts';
import type { RunProgress } from './progress.ts';
import { renderPlan, renderResult, renderStatus, statusLine } from './render.ts';
import { type AccountReport, emptyReport, reportJson } from './report.ts';
import { desiredWebhook, webhookApi } from './webhook.ts';

/** What one sync run decided before any account starts. */
export interface RunContext {
  args: SyncArgs;
  stderr: NodeJS.WritableStream;
  createApi:
    | ((account: SyncAccount, options: { maxResponseBytes: number; onRetry: (info: RetryInfo) => void }) => AccountApi)
    | undefined;
  maxRounds: number | undefined;
  roundDelayMs: number | undefined;
  paint: Paint;
  progress: RunProgress;
  served: ServedFunction[];
  names: Set<string>;
  origin: string;
  secret: string;
  dryRun: boolean;
  /** --only's names, when given. */
  scope: Set<string> | undefined;
  /** The event types the webhook subscribes to. */
  types: string[];
}

/** What one account adds to the run: its reports and their --json documents. */
export interface AccountResult {
  reports: AccountReport[];
  documents: ReturnType<typeof reportJson>[];
}

/** Why an account cannot be synced at all (its own problems, or functions it names that are not served), if any. */
export const accountProblem = (account: SyncAccount, names: Set<string>): string | undefined => {
  if (account.problems.length > 0) return account.problems.join(' ');
  const missing = (account.functions ?? []).filter((name) => !names.has(name));
  return missing.length > 0
    ? `its "functions" list names functions not in functions/: ${missing.join(', ')}`
    : undefined;
};

/**
 * Whether the run touches an account's events webhook: only when the platform has webhooks, never
 * under --only (which names functions), and only with events to subscribe to or --prune to remove ours.
 */
export const webhookInScope = (hasWebhooks: boolean, scoped: boolean, eventTypes: number, prune: boolean): boolean =>
  hasWebhooks && !scoped && (eventTypes > 0 || prune);

/** Whether the webhook step is worth reporting: with events, an error, or something planned (--prune that found ours). */
export const webhookReported = (report: AccountReport, eventTypes: number): boolean =>
  eventTypes > 0 || report.error !== undefined || (report.plan?.entries.length ?? 0) > 0;

/** The options every syncAccount call of a run shares (rounds, pruning, dry run, progress). */
const sharedOptions = (run: RunContext, say: (text: string) => void) => ({
  origin: run.origin,
  prune: run.args.prune && !run.args.status,
  dryRun: run.dryRun,
  adopt: run.args.adopt,
  onWait: say,
  onStep: () => run.progress.wrote(),
  ...(run.maxRounds !== undefined ? { maxRounds: run.maxRounds } : {}),
  ...(run.roundDelayMs !== undefined ? { roundDelayMs: run.roundDelayMs } : {}),
});

/** Records a finished step's report and prints its result (the plan alone under a dry run). */
const keep = (
  run: RunContext,
  result: AccountResult,
  report: AccountReport,
  document: ReturnType<typeof reportJson>,
  out: (text: string) => void,
) => {
  result.reports.push(report);
  result.documents.push(document);
  if (!report.plan || !run.dryRun) out(renderResult(report, run.paint));
  out('');
};

/** The functions step: the account's desired functions planned and applied against its API. */
const syncFunctions = async (
  run: RunContext,
  account: SyncAccount,
  api: AccountApi['api'],
  say: (text: string) => void,
  out: (text: string) => void,
): Promise<AccountReport> => {
  // The first account's urls keep the section-4 form; every other's name the account (§10).
  const desired = selectFunctions(
    selectFunctions(await desiredFunctions(run.served, run.origin, run.secret, account.urlAccount), run.args.only),
    account.functions,
  );
  const options: SyncAccountOptions = {
    ...sharedOptions(run, say),
    account: account.name,
    ownAccount: account.name,
    baseUrl: account.baseUrl,
    api,
    desired,
    concurrency: run.args.concurrency,
    ...(run.scope ? { scope: run.scope } : {}),
    onPlan: (plan) =>
      out((run.args.status ? renderStatus : renderPlan)(account.name, account.baseUrl, plan, run.paint)),
  };
  return syncAccount(options);
};

/** The webhook step: one events webhook at the account's events path, subscribed to the run's event types. */
export const syncWebhook = (
  run: RunContext,
  account: SyncAccount,
  webhooks: NonNullable<AccountApi['webhooks']>,
  say: (text: string) => void,
  out: (text: string) => void,
): Promise<AccountReport> => {
  const name = `${account.name} (events webhook)`;
  return syncAccount({
    ...sharedOptions(run, say),
    account: name,
    baseUrl: account.baseUrl,
    api: webhookApi(webhooks, [run.origin, ...run.args.adopt], account.name),
    desired: desiredWebhook(run.origin, account.eventsPath, run.types),
    // Without events, --prune only looks for ours: nothing found is nothing to report.
    onPlan: (plan) => {
      if (run.types.length > 0 || plan.entries.length > 0) {
        out(
          run.args.status
            ? renderStatus(name, account.baseUrl, plan, run.paint, 'webhook')
            : renderPlan(name, account.baseUrl, plan, run.paint),
        );
      }
    },
  });
};

/** One account: its functions, then its events webhook; what it prints goes to `out`. */
export const syncOne = async (
  run: RunContext,
  account: SyncAccount,
  out: (text: string) => void,
): Promise<AccountResult> => {
  const result: AccountResult = { reports: [], documents: [] };
  const problem = accountProblem(account, run.names);
  if (problem) {
    const report: AccountReport = {
      ...emptyReport(account.name, account.baseUrl, 'failed'),
      error: { kind: 'error', message: problem },
    };
    result.reports.push(report);
    result.documents.push(reportJson(report));
    out(`Account "${account.name}": ${statusLine(report, run.paint)}`);
    return result;
  }
  const say = (text: string) => run.progress.print(run.stderr, `[${account.name}] ${text}\n`);
  const onRetry = (info: RetryInfo) =>
    say(
      `${info.method} ${info.path} ${info.reason}; attempt ${info.attempt} of ${info.of} in ${(info.waitMs / 1000).toFixed(1)} s`,
    );
  const clientOptions = { maxResponseBytes: run.args.maxResponseBytes, onRetry };
  const { api, requests, webhooks } = run.createApi
    ? run.createApi(account, clientOptions)
    : accountApi({ ...account, ...clientOptions });
  const report = await syncFunctions(run, account, api, say, out);
  keep(run, result, report, reportJson(report, requests), out);
  if (webhooks && webhookInScope(true, run.scope !== undefined, run.types.length, run.args.prune)) {
    const hook = await syncWebhook(run, account, webhooks, say, out);
    if (webhookReported(hook, run.types.length)) keep(run, result, hook, reportJson(hook), out);
  }
  return result;
};
