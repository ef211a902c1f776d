// How many accounts the many-account benchmark Worker serves (bench/workers/projectWithAccounts.ts),
// shared with the Node side that calls through the last one (bench/src/accounts.ts).
export const ACCOUNTS = 5000;
