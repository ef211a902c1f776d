// The framework's test Worker (test/wrangler.toml `main`): its fixture functions served the way a
// project's worker.ts serves functions/, with every optional feature on, and the Durable Object
// classes its bindings name. `call` and `send` of agent-functions/testing go through it.
import { accountStore } from '../accounts/admin.ts';
import { conversationFeatures } from '../conversations/features.ts';
import { createWorker } from '../createWorker.ts';
import type { Env } from '../env.ts';
import { mcpOnDemand } from '../mcp/onDemand.ts';
import { openApiDocument } from '../openapi.ts';
import { platformFromEnv } from '../platform/client/fromEnv.ts';
import { functions } from './fixtures/functions/index.ts';

export { AccountStore } from '../accounts/storeObject.ts';
export { ApprovalDesk } from '../approval/desk.ts';
export { ApprovalRequest } from '../approval/workflow.ts';
export { CallLedger } from '../conversations/ledger.ts';
export { DeferredCall } from '../conversations/workflow.ts';
export { EventLedger } from '../events/ledger.ts';
export { FunctionHealth } from '../metrics/health.ts';

export default createWorker({
  functions,
  platform: platformFromEnv,
  openapi: openApiDocument,
  mcp: mcpOnDemand(() => import('../mcp/index.ts')),
  conversations: conversationFeatures,
  accountStore,
}) satisfies ExportedHandler<Env>;
