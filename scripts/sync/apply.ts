// Applies a plan to one account: its writes with bounded concurrency, in rounds. Each step ends
// done, to retry after a fresh list (anything that may or may not have happened,
// docs/platform-contract.md §5), or failed for good; every round after the first starts from a fresh list, so a create whose
// answer was lost is found, not sent again.
import { setTimeout as sleep } from 'node:timers/promises';
import type { FunctionRecord, RemoteFunction } from 'agent-functions/platform';
import {
  AuthenticationError,
  ConflictError,
  NetworkError,
  NotFoundError,
  PlanError,
  PlatformError,
  RateLimitError,
  ValidationError,
} from 'agent-functions/platform';
import { hasChanges, isWrite, type Plan, planSync, type WriteEntry } from './plan.ts';
import { pool } from './pool.ts';
import { type AccountReport, emptyReport } from './report.ts';

/** The part of the platform client sync uses. */
export interface FunctionsApi {
  list(): Promise<RemoteFunction[]>;
  create(input: FunctionRecord): Promise<unknown>;
  update(id: string, input: Partial<FunctionRecord>): Promise<unknown>;
  delete(id: string): Promise<unknown>;
}

/** How one write ended. */
export interface StepOutcome {
  name: string;
  action: WriteEntry['action'];
  status: 'done' | 'retry' | 'failed';
  /** Why it must be retried or failed (the platform's message). */
  reason?: string;
  /** The platform's Retry-After hint, when a rate limit stopped the step. */
  retryAfterMs?: number;
}

/** 401 or 403: no request of this account can succeed, so the run stops at once. */
export const isAccessError = (error: unknown): error is AuthenticationError | PlanError =>
  error instanceof AuthenticationError || error instanceof PlanError;

const write = (entry: WriteEntry, api: FunctionsApi): Promise<unknown> => {
  if (entry.action === 'create') return api.create(entry.desired);
  if (entry.action === 'delete') return api.delete(entry.id);
  const fields = Object.fromEntries(entry.changes.map((change) => [change.field, entry.desired[change.field]]));
  return api.update(entry.id, fields);
};

/** What a failed write means for the next round. */
export const outcomeOf = (entry: WriteEntry, error: unknown): StepOutcome => {
  const base = { name: entry.name, action: entry.action };
  const reason = error instanceof Error ? error.message : String(error);
  // Already gone is what a delete wanted.
  if (entry.action === 'delete' && error instanceof NotFoundError) return { ...base, status: 'done' };
  // The platform refused this payload: sending it again cannot help.
  if (error instanceof ValidationError) return { ...base, status: 'failed', reason };
  // 409 on create (the name exists), 404 on update (deleted meanwhile), a lost or failed answer:
  // all are settled by a fresh list and a new plan, never by sending the same write blindly.
  if (error instanceof RateLimitError) return { ...base, status: 'retry', reason, retryAfterMs: error.retryAfterMs };
  if (error instanceof ConflictError || error instanceof NotFoundError) return { ...base, status: 'retry', reason };
  if (error instanceof PlatformError && error.status >= 400 && error.status < 500 && !error.retryable) {
    return { ...base, status: 'failed', reason };
  }
  return { ...base, status: 'retry', reason };
};

/**
 * Runs the writes, `concurrency` at a time. Throws the first 401/403 after the writes in flight end.
 * @example await applyWrites(plan.entries.filter(isWrite), client.customFunctions, { concurrency: 4 })
 */
export const applyWrites = async (
  entries: WriteEntry[],
  api: FunctionsApi,
  options: { concurrency: number; onStep?: (outcome: StepOutcome) => void },
): Promise<StepOutcome[]> => {
  const outcomes: StepOutcome[] = [];
  let stop: unknown;
  await pool(entries, options.concurrency, async (entry) => {
    let outcome: StepOutcome;
    try {
      await write(entry, api);
      outcome = { name: entry.name, action: entry.action, status: 'done' };
    } catch (error) {
      if (isAccessError(error)) {
        stop ??= error;
        return 'stop';
      }
      outcome = outcomeOf(entry, error);
    }
    outcomes.push(outcome);
    options.onStep?.(outcome);
    return undefined;
  });
  if (stop !== undefined) throw stop;
  return outcomes;
};

export interface SyncAccountOptions {
  account: string;
  baseUrl: string;
  api: FunctionsApi;
  desired: FunctionRecord[];
  origin: string;
  prune: boolean;
  dryRun: boolean;
  scope?: ReadonlySet<string>;
  concurrency?: number;
  /** Rounds of apply-then-relist before giving up (default 5). */
  maxRounds?: number;
  /** Pause before the second round, doubling each round up to 30 s (default 1000). */
  roundDelayMs?: number;
  /** Previous origins whose registrations are moved to `origin` (--adopt). */
  adopt?: readonly string[];
  /** The account of the accounts file whose urls are ours here (planSync's `account`). */
  ownAccount?: string;
  onPlan?: (plan: Plan) => void;
  onStep?: (outcome: StepOutcome, done: number, total: number) => void;
  /** Called before each pause of the run: what it waits for, and how long. */
  onWait?: (text: string) => void;
}

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
  const pause = async (what: string, hintMs = 0) => {
    // Back off before trying again; a rate limit's own hint wins when it is longer.
    const ms = Math.min(30_000, Math.max(delayMs, hintMs));
    options.onWait?.(`${what}; waiting ${(ms / 1000).toFixed(1)} s`);
    await sleep(ms);
    delayMs *= 2;
  };
  // The client already retried; a list that still fails (a long storm) gets the rounds' patience.
  // An address that does not answer at all gets none: it fails fast, with the client's message.
  const list = async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await api.list();
      } catch (error) {
        const patient = error instanceof PlatformError && error.retryable && !(error instanceof NetworkError);
        if (!patient || attempt >= maxRounds) throw error;
        await pause(
          `listing again (attempt ${attempt + 1} of ${maxRounds}) after: ${error.message.split('. ')[0]}`,
          error instanceof RateLimitError ? error.retryAfterMs : 0,
        );
      }
    }
  };
  const replan = async () =>
    planSync({
      desired,
      remote: await list(),
      origin,
      prune,
      ...(scope ? { scope } : {}),
      ...(options.adopt ? { adopt: options.adopt } : {}),
      ...(options.ownAccount !== undefined ? { account: options.ownAccount } : {}),
    });
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
      await pause(
        `round ${report.rounds + 1} of ${maxRounds} will retry ${retries.map((o) => `${o.action} ${o.name}`).join(', ')} after a fresh list`,
        Math.max(0, ...retries.map((outcome) => outcome.retryAfterMs ?? 0)),
      );
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
