// agent-functions/internal: helpers the CLI (agent-functions-cli) and the benchmark share with the
// Worker. Not for projects: these may change in any release, without a note in the changelog.

export {
  ACCOUNTS_PATH,
  accountPathOf,
  accountsKey,
  LIST_PAGE_MAX,
  type ListQuery,
  relayOf,
  removedSchema,
  type StoredInput,
  type StoredList,
  type StoredSummary,
  storedInputSchema,
  storedListSchema,
  storedSummarySchema,
} from './accounts/contract.ts';
export { readBody } from './args.ts';
export { bearerToken } from './bearerToken.ts';
export { FRAMEWORK_ENV_NAMES } from './frameworkEnv.ts';
export { allowedHostsOf, type LocalSurfaceRefusal, localSurfaceRefusal } from './localSurface.ts';
export {
  type CallRecord,
  dataPointOf,
  OUTCOMES,
  observe,
  RECORD_BLOBS,
  RECORD_DOUBLES,
  RECORD_EVENT,
  RECORD_KINDS,
  recordColumn,
  TRANSPORTS,
} from './record.ts';
export { isCallRecord, recordOfLine } from './recordLine.ts';
export { MIN_SECRET_LENGTH, weakSecretProblem } from './secretStrength.ts';
export { quietUncaught, type Write, withoutUncaught } from './uncaughtLogs.ts';
