// What one account's run planned, did and left; the --json document of it (urls redacted); and
// the exit code of a whole run.

import { redactUrl } from '../project/redact.ts';
import type { Plan, PlanEntry, WriteEntry } from './plan.ts';

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
  action: WriteEntry['action'];
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

/** Exit code of a finished run (see HELP). */
export const exitCodeOf = (reports: AccountReport[], dryRun: boolean, exitCodeFlag: boolean): number => {
  const bad = reports.filter((r) => r.status === 'failed' || r.status === 'not-converged' || r.conflicts.length > 0);
  if (bad.length > 0) {
    const kinds = new Set(bad.map((r) => r.error?.kind ?? 'error'));
    if (kinds.size === 1 && kinds.has('unauthorized')) return 3;
    if (kinds.size === 1 && kinds.has('forbidden')) return 4;
    return 1;
  }
  return dryRun && exitCodeFlag && reports.some((r) => r.status === 'would-change') ? 2 : 0;
};

/** One plan entry without the payload (which repeats the url and its key). */
export const entryJson = (entry: PlanEntry) => {
  switch (entry.action) {
    case 'create':
      return { action: entry.action, name: entry.name };
    case 'update':
      return {
        action: entry.action,
        name: entry.name,
        id: entry.id,
        ...(entry.adoptedFrom ? { adoptedFrom: entry.adoptedFrom } : {}),
        changes: entry.changes.map((change) =>
          change.field === 'url'
            ? { field: 'url', before: redactUrl(String(change.before)), after: redactUrl(String(change.after)) }
            : change,
        ),
      };
    case 'delete':
      return { action: entry.action, name: entry.name, id: entry.id, reason: entry.reason };
    case 'conflict':
      return { action: entry.action, name: entry.name, id: entry.id, url: redactUrl(entry.url) };
    default:
      return { action: entry.action, name: entry.name, id: entry.id };
  }
};

/** One account's report as plain JSON. */
export const reportJson = (report: AccountReport, requests?: { reads: number; writes: number }) => ({
  account: report.account,
  baseUrl: report.baseUrl,
  status: report.status,
  error: report.error ?? null,
  counts: report.plan?.counts ?? null,
  foreign: report.plan?.foreign ?? 0,
  plan: report.plan?.entries.map(entryJson) ?? [],
  applied: report.applied,
  left: report.left.map((entry) => ({ action: entry.action, name: entry.name })),
  conflicts: report.conflicts,
  rounds: report.rounds,
  requests: requests ?? null,
});
