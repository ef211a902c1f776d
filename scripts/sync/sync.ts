// One account's run: list, plan, and (unless dry) apply in rounds. Every round after the first
// starts from a fresh list, so a create whose answer was lost is found, not sent again.
import { setTimeout as sleep } from 'node:timers/promises';
import { AuthenticationError, PlatformError, RateLimitError } from '../../src/platform/errors.ts';
import { applyWrites, type FunctionsApi, isAccessError, isWrite, type StepOutcome } from './apply.ts';
import type { DesiredFunction } from './desired.ts';
import { hasChanges, type Plan, type PlanEntry, planSync } from './plan.ts';

/** How an account's run ended. */
export type AccountStatus =
  | 'in-sync' // nothing to do (dry run or not)
  | 'would-change' // dry run with changes
  | 'synced' // changes applied, nothing left
  | 'not-converged' // writes still pending after the last round
  | 'failed'; // stopped (401, 403, unreachable) or some writes were refused for good

/** One planned write and how it ended, after every retry. */
export interface AppliedWrite {
  name: string;
  action: StepOutcome['action'];
  status: 'done' | 'failed' | 'left';
  reason?: string;
}

/** What one account's run planned, did and left. */
export interface AccountReport {
  account: string;
  baseUrl: string;
  status: AccountStatus;
  /** The first plan: what the run found and meant to do. */
  plan: Plan | undefined;
  /** Each write of the first plan and how it ended (`left`: still pending when the run stopped). */
  applied: AppliedWrite[];
  /** Writes still pending when the run gave up (only with not-converged). */
  left: PlanEntry[];
  /** Names registered by someone else, left alone. */
  conflicts: string[];
  /** Write requests sent, including retried ones. */
  writes: number;
  rounds: number;
  error?: { kind: 'unauthorized' | 'forbidden' | 'error'; message: string };
}

export interface SyncAccountOptions {
  account: string;
  baseUrl: string;
  api: FunctionsApi;
  desired: DesiredFunction[];
  origin: string;
  prune: boolean;
  dryRun: boolean;
  scope?: ReadonlySet<string>;
  concurrency?: number;
  /** Rounds of apply-then-relist before giving up (default 5). */
  maxRounds?: number;
  /** Pause before the second round, doubling each round up to 30 s (default 1000). */
  roundDelayMs?: number;
  onPlan?: (plan: Plan) => void;
  onStep?: (outcome: StepOutcome, done: number, total: number) => void;
}

/** A report of an account before anything was done for it. */
export const emptyReport = (account: string, baseUrl: string, status: AccountReport['status']): AccountReport => ({
  account,
  baseUrl,
  status,
  plan: undefined,
  applied: [],
  left: [],
  conflicts: [],
  writes: 0,
  rounds: 0,
});

/** The message a 401 or 403 deserves: what to do about it. */
export const accessMessage = (error: unknown, account: string): string =>
  error instanceof AuthenticationError
    ? `The platform refused the API key of account "${account}" (401). Check its key variable (PLATFORM_API_KEY by default): it must be a current key of this account, from the dashboard or the api-keys resource.`
    : `The platform answered 403 for account "${account}": its plan does not include API access (per the platform spec, only older plans lack it). Upgrade the plan to Business, Agency or Agency Unlimited, or remove the account from the run.`;

/**
 * Makes one account hold exactly the desired functions; never throws, the report says what happened.
 * @example const report = await syncAccount({ account: 'default', baseUrl, api: client.customFunctions, desired, origin, prune: false, dryRun: true })
 */
export const syncAccount = async (options: SyncAccountOptions): Promise<AccountReport> => {
  const { api, desired, origin, prune, scope } = options;
  const maxRounds = options.maxRounds ?? 5;
  const report = emptyReport(options.account, options.baseUrl, 'in-sync');
  const latest = new Map<string, StepOutcome>();
  const refused = new Set<string>();
  let delayMs = options.roundDelayMs ?? 1000;
  const pause = async (hintMs = 0) => {
    // Back off before trying again; a rate limit's own hint wins when it is longer.
    await sleep(Math.min(30_000, Math.max(delayMs, hintMs)));
    delayMs *= 2;
  };
  // The client already retried; a list that still fails (a long storm) gets the rounds' patience.
  const list = async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await api.list();
      } catch (error) {
        if (!(error instanceof PlatformError && error.retryable) || attempt >= maxRounds) throw error;
        await pause(error instanceof RateLimitError ? error.retryAfterMs : 0);
      }
    }
  };
  const replan = async () => planSync({ desired, remote: await list(), origin, prune, ...(scope ? { scope } : {}) });
  try {
    let plan = await replan();
    report.plan = plan;
    report.conflicts = plan.entries.filter((e) => e.action === 'conflict').map((e) => e.name);
    options.onPlan?.(plan);
    if (options.dryRun) {
      report.status = hasChanges(plan) ? 'would-change' : 'in-sync';
      return finish(report, latest);
    }
    while (true) {
      const writes = plan.entries.filter(isWrite).filter((entry) => !refused.has(entry.name));
      if (writes.length === 0) break;
      if (report.rounds === maxRounds) {
        report.left = writes;
        break;
      }
      report.rounds++;
      let done = 0;
      const outcomes = await applyWrites(writes, api, {
        concurrency: options.concurrency ?? 4,
        onStep: (outcome) => {
          report.writes++;
          latest.set(outcome.name, outcome);
          options.onStep?.(outcome, ++done, writes.length);
        },
      });
      for (const outcome of outcomes) if (outcome.status === 'failed') refused.add(outcome.name);
      const retries = outcomes.filter((outcome) => outcome.status === 'retry');
      if (retries.length === 0) break;
      await pause(Math.max(0, ...retries.map((outcome) => outcome.retryAfterMs ?? 0)));
      plan = await replan();
    }
  } catch (error) {
    const kind = isAccessError(error) ? (error instanceof AuthenticationError ? 'unauthorized' : 'forbidden') : 'error';
    const message =
      kind === 'error'
        ? error instanceof Error
          ? error.message
          : String(error)
        : accessMessage(error, options.account);
    report.error = { kind, message };
  }
  return finish(report, latest);
};

// Judged against the first plan: a lost create found by a later list counts as done.
const finish = (report: AccountReport, latest: Map<string, StepOutcome>): AccountReport => {
  const left = new Set(report.left.map((entry) => entry.name));
  report.applied =
    report.plan && report.rounds > 0
      ? report.plan.entries.filter(isWrite).map((entry) => {
          const last = latest.get(entry.name);
          const status =
            last?.status === 'failed'
              ? 'failed'
              : left.has(entry.name) || (report.error && last?.status !== 'done')
                ? 'left'
                : 'done';
          return {
            name: entry.name,
            action: entry.action,
            status,
            ...(status !== 'done' && last?.reason ? { reason: last.reason } : {}),
          };
        })
      : [];
  if (report.error || report.applied.some((write) => write.status === 'failed')) report.status = 'failed';
  else if (report.left.length > 0) report.status = 'not-converged';
  else if (report.status === 'in-sync' && report.applied.length > 0) report.status = 'synced';
  return report;
};
