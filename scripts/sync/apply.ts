// Applies the writes of a plan with bounded concurrency. Each step ends done, to retry after a
// fresh list (anything that may or may not have happened, CONTRACT section 5), or failed for good.
import {
  AuthenticationError,
  ConflictError,
  NotFoundError,
  PlanError,
  PlatformError,
  RateLimitError,
  ValidationError,
} from '../../src/platform/errors.ts';
import type { DesiredFunction } from './desired.ts';
import type { PlanEntry, RemoteFunction } from './plan.ts';

/** The part of the platform client sync uses. */
export interface FunctionsApi {
  list(): Promise<RemoteFunction[]>;
  create(input: DesiredFunction): Promise<unknown>;
  update(id: string, input: Partial<DesiredFunction>): Promise<unknown>;
  delete(id: string): Promise<unknown>;
}

export type WriteEntry = Extract<PlanEntry, { action: 'create' | 'update' | 'delete' }>;

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
  let next = 0;
  let stop: unknown;
  const worker = async () => {
    while (stop === undefined && next < entries.length) {
      const entry = entries[next++] as WriteEntry;
      let outcome: StepOutcome;
      try {
        await write(entry, api);
        outcome = { name: entry.name, action: entry.action, status: 'done' };
      } catch (error) {
        if (isAccessError(error)) {
          stop ??= error;
          return;
        }
        outcome = outcomeOf(entry, error);
      }
      outcomes.push(outcome);
      options.onStep?.(outcome);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, entries.length)) }, worker));
  if (stop !== undefined) throw stop;
  return outcomes;
};

/** Whether a plan entry writes. */
export const isWrite = (entry: PlanEntry): entry is WriteEntry =>
  entry.action === 'create' || entry.action === 'update' || entry.action === 'delete';
