// What a route handler receives and returns, and the two helpers most of them use.

import { describeIssues } from 'agent-functions/platform';
import type { z } from 'zod';
import { EmulatorError, readJsonObject } from './http.ts';
import type { AccountState, EmulatorState } from './state.ts';

/** Settings the routes read. */
export interface RouteSettings {
  pageSize: number;
  /** What the 11th Agency sub-account does: refused (402) or created and flagged as charged. */
  agencyExtraSubAccounts: 'refuse' | 'charge';
  /** Signs the emulator's calls of functions like webhook deliveries, when set. */
  functionSigningSecret: string | undefined;
  /** Time limit of the emulator's outbound calls (deliveries, playing the agent). */
  outboundTimeoutMs: number;
  /** How long the agent waits for a function's answer before it gives up (default 15 000). */
  answerDeadlineMs: number;
  /** Attempts of one event delivery that fails (no answer or not 2xx), each signed afresh. */
  deliveryAttempts: number;
  /** Pause before the second attempt of a delivery, doubling after each. */
  deliveryRetryDelayMs: number;
  /** The fault switch of the next delivery (faults.ts): drop it, send it twice, or neither. */
  deliveryFault: () => 'drop' | 'duplicate' | undefined;
}

export interface RouteContext {
  state: EmulatorState;
  account: AccountState;
  request: Request;
  url: URL;
  params: Record<string, string>;
  settings: RouteSettings;
}

export interface RouteAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface Route {
  method: string;
  /** An itty-router path; `:name` segments become `params`. */
  path: string;
  handler: (context: RouteContext) => Promise<RouteAnswer>;
}

/**
 * The request body checked against a schema: 422 listing every problem, nothing changed.
 * @example const input = await validBody(context.request, contactInput)
 */
export const validBody = async <S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> => {
  const body = await readJsonObject(request);
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const problems = describeIssues(result.error);
  throw new EmulatorError(422, 'validation_failed', `The request body is invalid: ${problems.join('; ')}.`, {
    details: result.error.issues.map((issue, index) => ({
      field: issue.path.join('.') || 'body',
      problem: problems[index],
    })),
  });
};

/** A record of the account by id, or a 404 naming what was looked for. */
export const found = <T>(records: Map<string, T>, id: string | undefined, what: string): T => {
  const record = id === undefined ? undefined : records.get(id);
  if (!record)
    throw new EmulatorError(404, 'not_found', `No ${what} with id "${String(id).slice(0, 80)}" in this account.`);
  return record;
};

/**
 * One page of `items` (in creation order) after the `?cursor=` the previous page returned.
 * The cursor is the sequence number of the page's last record, so deletions never shift a page.
 */
export const paginate = <T extends { seq: number }>(
  items: Iterable<T>,
  url: URL,
  pageSize: number,
): { page: T[]; next: string | null } => {
  const cursor = url.searchParams.get('cursor');
  const limitText = url.searchParams.get('limit');
  const limit = limitText === null ? pageSize : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw new EmulatorError(400, 'invalid_limit', 'limit must be a whole number from 1 to 100.');
  }
  let after = 0;
  if (cursor !== null) {
    const decoded = /^c(\d{1,15})$/.exec(cursor);
    if (!decoded?.[1])
      throw new EmulatorError(400, 'invalid_cursor', 'cursor must be the "next" value of a previous page.');
    after = Number(decoded[1]);
  }
  const sorted = [...items].filter((item) => item.seq > after).sort((a, b) => a.seq - b.seq);
  const page = sorted.slice(0, limit);
  const last = page.at(-1);
  return { page, next: sorted.length > limit && last ? `c${last.seq}` : null };
};
