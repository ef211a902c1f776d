// Plans and results as a person reads them: one line per function, what differs underneath,
// counts at the end. Urls always appear redacted (redact.ts).

import { printable } from 'agent-functions/platform';
import { structuredPatch } from 'diff';
import { onlyKeyDiffers, redactUrl } from '../project/redact.ts';
import type { Paint } from './paint.ts';
import { type FieldChange, type Plan, type PlanEntry, urlAccount } from './plan.ts';
import type { AccountReport } from './report.ts';

/** The origin of a url, for the --adopt hint; the url itself when it does not parse. */
const originOf = (url: string): string => (URL.canParse(url) ? new URL(url).origin : url);

const MAX_DIFF_LINES = 12;

/** A short unified diff of two texts: changed lines with one line of context, at most 12 lines. */
export const textDiff = (before: string, after: string): string[] => {
  const patch = structuredPatch('platform', 'code', before, after, undefined, undefined, { context: 1 });
  const lines = patch.hunks.flatMap((hunk) => [
    `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`,
    ...hunk.lines.filter((line) => !line.startsWith('\\')),
  ]);
  return lines.length > MAX_DIFF_LINES
    ? [...lines.slice(0, MAX_DIFF_LINES), `… ${lines.length - MAX_DIFF_LINES} more lines`]
    : lines;
};

const asMap = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' ? (value as Record<string, unknown>) : {};

/** `+ name (type)`, `- name (type)`, `~ name: a → b` for each parameter that differs. */
export const parameterDiff = (before: unknown, after: unknown): string[] => {
  const [a, b] = [asMap(before), asMap(after)];
  const names = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return names.flatMap((name) => {
    if (!(name in a)) return [`+ ${name} (${String(b[name])})`];
    if (!(name in b)) return [`- ${name} (${String(a[name])})`];
    return a[name] === b[name] ? [] : [`~ ${name}: ${String(a[name])} → ${String(b[name])}`];
  });
};

/** The lines under an update, one block per changed field. */
export const changeLines = (change: FieldChange, paint: Paint): string[] => {
  if (change.field === 'description') {
    const colour = (line: string) =>
      line.startsWith('+') ? paint.green(line) : line.startsWith('-') ? paint.red(line) : paint.dim(line);
    return [
      'description:',
      ...textDiff(String(change.before ?? ''), String(change.after)).map((l) => `  ${colour(printable(l, 300))}`),
    ];
  }
  if (change.field === 'parameters')
    return ['parameters:', ...parameterDiff(change.before, change.after).map((l) => `  ${printable(l, 200)}`)];
  const [before, after] = [String(change.before ?? ''), String(change.after)];
  return onlyKeyDiffers(before, after)
    ? ['url: key changed (FUNCTIONS_SECRET was rotated)']
    : [`url: ${printable(redactUrl(before), 300)} → ${redactUrl(after)}`];
};

const entryLine = (entry: PlanEntry, paint: Paint): string[] => {
  // Names of records listed from the platform (delete, keep, conflict) are the platform's text.
  entry = { ...entry, name: printable(entry.name, 100) };
  switch (entry.action) {
    case 'create':
      return [paint.green(`+ create     ${entry.name}`)];
    case 'update':
      return [
        paint.yellow(`~ update     ${entry.name}`) +
          paint.dim(` (${entry.changes.map((c) => c.field).join(', ')})`) +
          (entry.adoptedFrom ? paint.cyan(` adopted from ${entry.adoptedFrom}`) : ''),
        ...entry.changes.flatMap((change) => changeLines(change, paint)).map((line) => `      ${line}`),
      ];
    case 'delete':
      return [
        paint.red(`- delete     ${entry.name}`) +
          paint.dim(entry.reason === 'duplicate' ? ' (a duplicate record of ours)' : ' (no longer in functions/)'),
      ];
    case 'unchanged':
      return [paint.dim(`= unchanged  ${entry.name}`)];
    case 'orphan':
      return [paint.dim(`? keep       ${entry.name} (no longer in functions/; --prune deletes it)`)];
    case 'conflict': {
      const other = urlAccount(entry.url);
      // Another account's url of this project: the accounts file names one platform account twice.
      if (other !== undefined) {
        return [
          paint.red(`! conflict   ${entry.name}`) +
            ` registered for account "${printable(other, 100)}" of this project (${printable(redactUrl(entry.url), 200)}); left alone. Does the accounts file list one platform account under two names?`,
        ];
      }
      return [
        paint.red(`! conflict   ${entry.name}`) +
          ` registered by someone else (${printable(redactUrl(entry.url), 200)}); left alone. Rename the function or remove theirs; if that is this project's previous address, run sync with --adopt ${printable(originOf(entry.url), 100)}.`,
      ];
    }
  }
};

/** `2 to create, 1 to update, 0 to delete, 5 unchanged` plus kept, conflicting and foreign counts. */
export const planCounts = (plan: Plan): string => {
  const { counts } = plan;
  const parts = [
    `${counts.create} to create`,
    `${counts.update} to update`,
    `${counts.delete} to delete`,
    `${counts.unchanged} unchanged`,
  ];
  if (counts.orphan) parts.push(`${counts.orphan} kept (not in functions/, no --prune)`);
  if (counts.conflict) parts.push(`${counts.conflict} in conflict`);
  if (plan.foreign) parts.push(`${plan.foreign} not managed by this project (left alone)`);
  return parts.join(', ');
};

/** The plan of one account. */
export const renderPlan = (account: string, baseUrl: string, plan: Plan, paint: Paint): string =>
  [
    paint.bold(`Account "${account}" (${baseUrl})`),
    ...plan.entries.flatMap((entry) => entryLine(entry, paint)).map((line) => `  ${line}`),
    `  Plan: ${planCounts(plan)}.`,
  ].join('\n');

const VERB = { create: 'created', update: 'updated', delete: 'deleted' } as const;

/** What one account's run did, ended with and left. */
export const renderResult = (report: AccountReport, paint: Paint): string => {
  const lines: string[] = [];
  for (const applied of report.applied) {
    const write = {
      ...applied,
      name: printable(applied.name, 100),
      reason: applied.reason && printable(applied.reason, 1000),
    };
    if (write.status === 'done') lines.push(paint.green(`✓ ${VERB[write.action]} ${write.name}`));
    else if (write.status === 'failed')
      lines.push(paint.red(`✗ ${write.action} ${write.name} failed: ${write.reason}`));
    else
      lines.push(
        paint.yellow(`… ${write.action} ${write.name} still pending${write.reason ? `: ${write.reason}` : ''}`),
      );
  }
  return [`Account "${report.account}": ${statusLine(report, paint)}`, ...lines.map((line) => `  ${line}`)].join('\n');
};

/** One line per account for the closing summary. */
export const statusLine = (report: AccountReport, paint: Paint): string => {
  const done = (action: 'create' | 'update' | 'delete') =>
    report.applied.filter((w) => w.action === action && w.status === 'done').length;
  const did = `${done('create')} created, ${done('update')} updated, ${done('delete')} deleted`;
  const conflicts = report.conflicts.length
    ? `; ${report.conflicts.length} in conflict (${report.conflicts.map((name) => printable(name, 100)).join(', ')})`
    : '';
  switch (report.status) {
    case 'in-sync':
      return paint.green('in sync, nothing to do') + conflicts;
    case 'would-change':
      return paint.yellow(`would change: ${report.plan ? planCounts(report.plan) : ''}`);
    case 'synced':
      return (
        paint.green(`synced: ${did}`) +
        paint.dim(` (${report.writes} writes, ${report.rounds} round${report.rounds === 1 ? '' : 's'})`) +
        conflicts
      );
    case 'not-converged':
      return paint.red(
        `not converged after ${report.rounds} rounds: ${did}; left: ${report.left.map((e) => `${e.action} ${e.name}`).join(', ')}. Run sync again to finish.`,
      );
    case 'failed':
      return (
        paint.red(
          report.error
            ? `failed: ${printable(report.error.message, 1000)}`
            : `failed: ${did}; some writes were refused`,
        ) + conflicts
      );
  }
};

/** `--status`: what one account has registered, and whether each matches the code. */
export const renderStatus = (
  account: string,
  baseUrl: string,
  plan: Plan,
  paint: Paint,
  kind: 'functions' | 'webhook' = 'functions',
): string => {
  const line = (entry: PlanEntry): string => {
    const name = printable(entry.name, 100).padEnd(28);
    switch (entry.action) {
      case 'unchanged':
        return paint.green(`✓ matches  ${name.trimEnd()}`);
      case 'update':
        return (
          paint.yellow(`≠ differs  ${name}`) +
          ` ${entry.changes.map((c) => c.field).join(', ')} differ${entry.adoptedFrom ? ` (registered under the previous origin ${entry.adoptedFrom})` : ''}`
        );
      case 'create':
        return `${paint.red(`✗ missing  ${name}`)} not registered`;
      case 'conflict':
        return `${paint.red(`! taken    ${name}`)} registered by someone else (${printable(originOf(entry.url), 100)})`;
      case 'orphan':
      case 'delete':
        return paint.dim(
          `? extra    ${name} ours, ${kind === 'webhook' ? 'but events/ has no files' : 'no longer in functions/'}`,
        );
    }
  };
  const desired = plan.entries.filter((e) => e.action !== 'orphan' && e.action !== 'delete').length;
  const others = plan.foreign ? `; ${plan.foreign} other registrations not managed by this project` : '';
  // The events webhook is one registration, not a function: its summary says so.
  const summary =
    kind === 'webhook'
      ? `  the events webhook ${desired === 0 ? 'is not wanted (no files in events/)' : plan.counts.unchanged === desired ? 'matches' : plan.entries.some((e) => e.action === 'create') ? 'is not registered' : 'differs'}${others}.`
      : `  ${plan.counts.unchanged} of ${desired} functions match${others}.`;
  return [
    paint.bold(`Account "${account}" (${baseUrl})`),
    ...plan.entries.map((entry) => `  ${line(entry)}`),
    summary,
  ].join('\n');
};
