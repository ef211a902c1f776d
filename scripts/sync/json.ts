// The --json document: the plan and the result of every account, urls redacted.
import type { PlanEntry } from './plan.ts';
import { redactUrl } from './redact.ts';
import type { AccountReport } from './sync.ts';

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
