// agent-functions/worker: the Worker over a project's functions (worker.ts calls createWorker),
// and what tools outside the Worker derive from the same definitions: manifests, keys and urls.

export type { AccountEntry, AccountsOption, AccountsService, StoredAccount } from './accounts/resolve.ts';
export type { AgentWorker, WorkerOptions } from './createWorker.ts';
export { createWorker } from './createWorker.ts';
export { isDevelopment } from './env.ts';
export { ACCOUNT_QUERY, accountsKey, functionKey, manifestKey, mcpKey } from './keys.ts';
export { createLogger, setLogSink } from './log.ts';
export { type McpModule, type McpRoutes, mcpOnDemand } from './mcp/onDemand.ts';
export { rateLimits } from './ratelimit.ts';
export type { CallRecord, RecordKind, RecordOutcome, RecordSink, Transport } from './record.ts';
export { setRecordSink } from './record.ts';
export type { RateLimits } from './registry.ts';
export type { FunctionManifest } from './schema/describe.ts';
export {
  DESCRIPTION_LIMIT,
  DefinitionError,
  describeFunction,
  describeParameters,
  PLACEHOLDER_DESCRIPTION,
} from './schema/describe.ts';
export type { JsonSchema } from './schema/parameters.ts';
export { withUnbuilt } from './unbuilt.ts';
export { functionUrl, normalizeOrigin } from './url.ts';
export { descriptionVersion, type RegisteredDescription } from './version.ts';
