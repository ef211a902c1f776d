// The text of an alert and of its recovery message (docs/observability.md "Alerts"): the client
// account, the function, the figures, the top code and the runbook. Names and counts only: no
// arguments, contacts or message texts ever reach the figures it is made from.
import type { Notice } from './incidents.ts';

/** Where the alert points the reader (docs/observability.md). */
export const RUNBOOK = 'docs/observability.md#runbook-a-clients-function-is-failing';

const percent = (part: number, whole: number) => `${Math.round((part / Math.max(whole, 1)) * 100)}%`;

const hhmm = (ms: number) => `${new Date(ms).toISOString().slice(11, 16)} UTC`;

/** What the rule saw, in words. */
const figuresOf = (notice: Notice): string => {
  const f = notice.figures;
  const window = `the last ${notice.windowMinutes} minutes`;
  if (notice.rule === 'errors') {
    const timeouts = f.timeouts > 0 ? ` (${f.timeouts} timed out)` : '';
    return `${f.errors} of ${f.calls} calls failed in ${window} (${percent(f.errors, f.calls)})${timeouts}`;
  }
  if (notice.rule === 'deferred') return `${f.deferredFailures} deferred or approved runs failed in ${window}`;
  return `${f.approvalExpiries} approvals expired unanswered in ${window}`;
};

const WHAT = { errors: 'calls failing', deferred: 'deferred work failing', approvals: 'approvals expiring' };

/**
 * The message's text.
 * @example noticeText(notice) // 'Alert: client-acme / track_parcel, calls failing: 7 of 9 calls failed ...'
 */
export const noticeText = (notice: Notice): string => {
  const subject = `${notice.account} / ${notice.function}`;
  if (notice.kind === 'clear') {
    return `Resolved: ${subject} is healthy again (${figuresOf(notice)}). The incident opened at ${hhmm(notice.openedAt)}.`;
  }
  const top = notice.figures.topCode
    ? ` Top error: ${notice.figures.topCode.code} (${notice.figures.topCode.count}).`
    : '';
  return `Alert: ${subject}, ${WHAT[notice.rule]}: ${figuresOf(notice)}.${top} Runbook: ${RUNBOOK}`;
};
