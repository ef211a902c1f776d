// How many accounts the 500-account benchmark Worker serves (bench/workers/projectWithAccounts.ts),
// shared with the Node side that calls through the last one (bench/src/accounts.ts).
export const ACCOUNTS = 500;
