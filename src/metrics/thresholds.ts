// When an alert fires (docs/observability.md "Alert settings"): the framework's defaults, the
// project's own (the metrics option) over them, and an account's (its `alerts` in
// platform.accounts.json) over those. Plain data, so the cron hands them to the FunctionHealth
// Durable Object in one request.

/** The thresholds of the alert rules; every field has a default. */
export interface AlertThresholds {
  /** The window every rule looks at, in minutes (default 5). */
  windowMinutes: number;
  /** Calls of one function in the window before its error rate counts (default 5). */
  minCalls: number;
  /** Share of those calls that ended in an error (a 5xx, a timeout, a throw) that fires (default 0.2). */
  errorRate: number;
  /** Deferred or approved work that failed in the window (an error, or its follow-up not sent) that fires (default 1; 0 turns the rule off). */
  deferredFailures: number;
  /** Approvals that expired unanswered in the window that fire (default 1; 0 turns the rule off). */
  approvalExpiries: number;
  /** No alerts at all (for an account: its functions are not watched). */
  off: boolean;
}

/** The settings as the metrics option and the accounts file take them: any subset. */
export type AlertSettings = Partial<AlertThresholds>;

/** The defaults (issue: at least 5 calls and 20% errors in 5 minutes; any failed deferred work; any expired approval). */
export const DEFAULT_THRESHOLDS: AlertThresholds = {
  windowMinutes: 5,
  minCalls: 5,
  errorRate: 0.2,
  deferredFailures: 1,
  approvalExpiries: 1,
  off: false,
};

/** The longest window a rule may take (the buckets are kept this long, and an hour more). */
export const MAX_WINDOW_MINUTES = 60;

/** What the cron hands the Durable Object: the project's thresholds and each account's overrides. */
export interface AlertConfig {
  project: AlertThresholds;
  accounts: Record<string, AlertSettings>;
}

/**
 * Only the known fields of `settings`, each within its range (a window of 1 to 60 minutes, a rate
 * in [0, 1], counts from 0): a setting out of range is left out, so its default holds.
 * @example cleanSettings({ errorRate: 0.5, windowMinutes: 999 }) // { errorRate: 0.5 }
 */
export const cleanSettings = (settings: unknown): AlertSettings => {
  if (typeof settings !== 'object' || settings === null) return {};
  const given = settings as Record<string, unknown>;
  const clean: AlertSettings = {};
  const count = (value: unknown, max: number) =>
    typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= max;
  if (count(given.windowMinutes, MAX_WINDOW_MINUTES) && (given.windowMinutes as number) >= 1)
    clean.windowMinutes = given.windowMinutes as number;
  if (count(given.minCalls, 1_000_000)) clean.minCalls = given.minCalls as number;
  if (typeof given.errorRate === 'number' && given.errorRate >= 0 && given.errorRate <= 1)
    clean.errorRate = given.errorRate;
  if (count(given.deferredFailures, 1_000_000)) clean.deferredFailures = given.deferredFailures as number;
  if (count(given.approvalExpiries, 1_000_000)) clean.approvalExpiries = given.approvalExpiries as number;
  if (typeof given.off === 'boolean') clean.off = given.off;
  return clean;
};

/** The thresholds of `account`: its own settings over the project's. */
export const thresholdsFor = (config: AlertConfig, account: string): AlertThresholds => ({
  ...config.project,
  ...config.accounts[account],
});
