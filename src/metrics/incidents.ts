// An incident's life (docs/observability.md "Alerts"): opened when a rule fires, one message when
// it opens and one when it clears, never two messages within 30 minutes, and never a message sent
// twice. What the FunctionHealth Durable Object keeps per account, function and rule, and how one
// evaluation moves it on. Pure: the Durable Object reads and writes the rows.
import type { Rule, WindowFigures } from './rules.ts';

/** Never more than one message per incident within this (docs/platform-contract.md §11). */
export const NOTICE_GAP_MS: number = 30 * 60_000;
/** A send still marked in flight after this was cut off (the Worker stopped): it may have gone out, so it counts as sent. */
export const SEND_LEASE_MS: number = 2 * 60_000;

/** An incident as stored: `notice` is its pending message's state (`done` once the open message went out). */
export interface Incident {
  account: string;
  function: string;
  rule: Rule;
  state: 'open' | 'cleared';
  notice: 'due' | 'sending' | 'done';
  openedAt: number;
  lastSentAt: number | null;
  attemptAt: number | null;
  figures: WindowFigures;
}

/** One message to send: the incident's opening or its clearing, with its figures. */
export interface Notice {
  /** Stable for this message of this incident: the webhook's `webhook-id` (a receiver deduplicates by it). */
  id: string;
  kind: 'open' | 'clear';
  account: string;
  function: string;
  rule: Rule;
  openedAt: number;
  windowMinutes: number;
  figures: WindowFigures;
}

/** How a send ended: delivered, refused (nothing was sent: try again), or ambiguous (it may have gone out: never again). */
export type SendOutcome = 'sent' | 'refused' | 'ambiguous';

/**
 * The incident after one evaluation, or null when it is over (nothing to keep). `firing`: the rule
 * fires now; `over`: the figures show it healthy (rules.ts `cleared`).
 */
export const advance = (
  incident: Incident | undefined,
  at: { account: string; function: string; rule: Rule; now: number; figures: WindowFigures | undefined },
  firing: boolean,
  over: boolean,
): Incident | null => {
  if (!incident) {
    if (!firing || !at.figures) return null;
    const { account, function: fn, rule, now, figures } = at;
    return {
      account,
      function: fn,
      rule,
      state: 'open',
      notice: 'due',
      openedAt: now,
      lastSentAt: null,
      attemptAt: null,
      figures,
    };
  }
  const figures = at.figures ?? incident.figures;
  // A message in flight: its outcome decides first.
  if (incident.notice === 'sending') return { ...incident, figures };
  if (incident.state === 'open') {
    if (!over) return { ...incident, figures };
    // Over before its opening message ever went out: nobody was told, so nothing to take back.
    if (incident.notice === 'due') return null;
    return { ...incident, state: 'cleared', notice: 'due', figures };
  }
  // Cleared, its message not sent yet: firing again is the same incident, whose opening was sent.
  if (firing) return { ...incident, state: 'open', notice: 'done', figures };
  return { ...incident, figures };
};

/** Whether the incident's pending message may go out at `now` (due, and 30 minutes after the last). */
export const sendable = (incident: Incident, now: number): boolean =>
  incident.notice === 'due' && (incident.lastSentAt === null || now - incident.lastSentAt >= NOTICE_GAP_MS);

/** The incident after its message's send ended `outcome`, or null when its clearing went out (it is over). */
export const settled = (incident: Incident, outcome: SendOutcome): Incident | null => {
  if (incident.notice !== 'sending') return incident;
  if (outcome === 'refused') return { ...incident, notice: 'due', attemptAt: null };
  if (incident.state === 'cleared') return null;
  return { ...incident, notice: 'done', lastSentAt: incident.attemptAt, attemptAt: null };
};
