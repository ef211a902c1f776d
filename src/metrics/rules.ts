// The alert rules (docs/observability.md "Alerts"): over one account's function's figures in its
// window, which rules fire, and which show the function healthy again. Missing data is never an
// incident: a function with no calls fires nothing, and an error-rate incident clears only on
// calls that succeed, never on silence.
import type { AlertThresholds } from './thresholds.ts';

/** The rules: a function's calls failing, its deferred work failing, its approvals expiring. */
export const RULES = ['errors', 'deferred', 'approvals'] as const;
export type Rule = (typeof RULES)[number];

/** One account's function's figures over a rule's window. */
export interface WindowFigures {
  account: string;
  function: string;
  /** Calls answered now and event deliveries (the error-rate rule's). */
  calls: number;
  errors: number;
  refused: number;
  timeouts: number;
  deferredFailures: number;
  approvalExpiries: number;
  /** The errors' most frequent code, and how often it came. */
  topCode?: { code: string; count: number } | undefined;
}

/** Whether `rule` fires on `figures`. */
export const fires = (rule: Rule, figures: WindowFigures, t: AlertThresholds): boolean => {
  if (t.off) return false;
  if (rule === 'errors') return figures.calls >= t.minCalls && figures.errors / figures.calls >= t.errorRate;
  if (rule === 'deferred') return t.deferredFailures > 0 && figures.deferredFailures >= t.deferredFailures;
  return t.approvalExpiries > 0 && figures.approvalExpiries >= t.approvalExpiries;
};

/**
 * Whether an open incident of `rule` is over: calls came and fewer than the threshold failed (no
 * calls is no news), or a whole window passed without failed work or an expiry. An account whose
 * alerts were turned off clears too.
 */
export const cleared = (rule: Rule, figures: WindowFigures | undefined, t: AlertThresholds): boolean => {
  if (t.off) return true;
  if (rule === 'errors')
    return figures !== undefined && figures.calls > 0 && figures.errors / figures.calls < t.errorRate;
  return figures === undefined || !fires(rule, figures, t);
};
