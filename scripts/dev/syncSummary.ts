// What dev prints of a sync after a save: the writes it made, in a line per change (the accounts
// that got the same change named together), not the whole plan of every account (sync's report).
import type { FieldChange } from '../sync/plan.ts';
import type { AccountReport } from '../sync/report.ts';

const WEBHOOK_SUFFIX = ' (events webhook)';

/** `+ name (type)` / `- name (type)` for each parameter (or event type) added or removed. */
const parameterMoves = (change: FieldChange): string[] => {
  const before = (change.before ?? {}) as Record<string, unknown>;
  const after = (change.after ?? {}) as Record<string, unknown>;
  return [
    ...Object.keys(after)
      .filter((name) => !(name in before))
      .map((name) => `+ ${name} (${String(after[name])})`),
    ...Object.keys(before)
      .filter((name) => !(name in after))
      .map((name) => `- ${name} (${String(before[name])})`),
  ];
};

/** What one update changed: its fields, with the parameters added or removed. */
const updateDetail = (report: AccountReport, name: string): string => {
  const entry = report.plan?.entries.find((candidate) => candidate.name === name);
  if (entry?.action !== 'update') return '';
  const parts = entry.changes.flatMap((change) => {
    const moves = change.field === 'parameters' ? parameterMoves(change) : [];
    return moves.length > 0 ? moves : [change.field];
  });
  return ` (${parts.join(', ')})`;
};

/** The writes one account's run made, as one phrase ('' when none). */
const changesOf = (report: AccountReport): string => {
  const done = report.applied.filter((write) => write.status === 'done');
  const phrase = (action: 'create' | 'update' | 'delete', verb: string) => {
    const names = done.filter((write) => write.action === action).map((write) => write.name);
    if (names.length === 0) return [];
    const detail = (name: string) => (action === 'update' ? `${name}${updateDetail(report, name)}` : name);
    return [`${verb} ${names.map(detail).join(', ')}`];
  };
  return [...phrase('create', 'created'), ...phrase('update', 'updated'), ...phrase('delete', 'deleted')].join('; ');
};

/**
 * A line per change a sync made across `accounts` local accounts (none when it wrote nothing).
 * @example syncSummary(run.reports, 3) // ['synced on every account: updated quote_plan (description)']
 */
export const syncSummary = (reports: readonly AccountReport[], accounts: number): string[] => {
  const byChange = new Map<string, string[]>();
  for (const report of reports) {
    const text = changesOf(report);
    if (!text) continue;
    const account = report.account.endsWith(WEBHOOK_SUFFIX)
      ? report.account.slice(0, -WEBHOOK_SUFFIX.length)
      : report.account;
    byChange.set(text, [...(byChange.get(text) ?? []), account]);
  }
  return [...byChange].map(([text, names]) => {
    const unique = [...new Set(names)];
    if (accounts <= 1) return `synced: ${text}`;
    return unique.length === accounts ? `synced on every account: ${text}` : `synced on ${unique.join(', ')}: ${text}`;
  });
};
