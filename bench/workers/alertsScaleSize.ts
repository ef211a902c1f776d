// How many accounts and functions per account the alert evaluation benchmark covers
// (bench/workers/alertsScale.ts); shared with bench/src/metrics.ts, which reports them.
export const ALERT_ACCOUNTS = 500;
export const ALERT_FUNCTIONS = 10;
