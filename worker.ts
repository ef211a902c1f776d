// The Worker entry (wrangler.toml `main`), yours to edit: it hands the framework your functions and
// exports the Durable Object classes wrangler.toml binds. Remove an export with its binding.

import { accountStore, readStoredAccount, serveAccounts } from 'agent-functions/accounts';
import { withApproval } from 'agent-functions/approval';
import { conversationFeatures } from 'agent-functions/conversations';
import { callMetrics } from 'agent-functions/metrics';
import { openApiDocument } from 'agent-functions/openapi';
import { platformFromEnv } from 'agent-functions/platform';
import { createWorker, mcpOnDemand, rateLimits } from 'agent-functions/worker';
import { accounts } from './generated/accounts.ts';
import { events } from './generated/events.ts';
import { functions } from './generated/functions.ts';
import { mayMessage } from './lib/optOuts.ts';
import { teamContactOf } from './lib/team.ts';

export { AccountStore } from 'agent-functions/accounts';
export { ApprovalDesk, ApprovalRequest } from 'agent-functions/approval';
export { CallLedger, DeferredCall } from 'agent-functions/conversations';
export { EventLedger } from 'agent-functions/events';
export { FunctionHealth } from 'agent-functions/metrics';
export { BookingCalendar } from './lib/calendar.ts';
export { ContactDirectory } from './lib/contacts.ts';
export { OptOutList } from './lib/optOuts.ts';

// platform: context.platform for handoff_to_human and capture_lead; drop it if no function calls the platform.
// openapi: GET /openapi.json for platforms that import OpenAPI; drop it to leave it out of the bundle.
// events: the handlers in events/ (generated/events.ts; undefined when the folder is empty).
// mcp: every function as an MCP tool on /mcp (docs/mcp.md), imported on the first MCP request;
// drop it and none of it is bundled.
// conversations: writes run once per conversation, and `later` functions answer now and finish
// on the DEFERRED_CALLS workflow (docs/functions.md); drop it with CALL_LEDGER and DEFERRED_CALLS.
// accounts: the platform accounts of platform.accounts.json (generated/accounts.ts); each call
// acts in the account its url names (docs/sync-and-accounts.md); store: the key of an account
// without apiKeyEnv, from the account store (ACCOUNT_STORE, ACCOUNTS_SECRET). Drop it for one
// account from PLATFORM_API_KEY and PLATFORM_BASE_URL, and none of it is bundled.
// accountStore: the account store's admin endpoint (/accounts), which npm run accounts uses to store
// client accounts' keys; drop it (and store above) with ACCOUNT_STORE when every key is a Worker variable.
// withApproval: functions with `approval` (refund_payment above 100 EUR) ask the team first, on the
// APPROVALS workflow and the APPROVAL_DESK Durable Object; the team is handoff_to_human's inbox.
// metrics: every call's figures in Workers Analytics Engine (CALL_RECORDS; npm run stats reads
// them) and alerts to ALERTS_CONTACT_ID when a client's function fails, evaluated by the cron in
// FUNCTION_HEALTH (docs/observability.md); an account's `alerts` in platform.accounts.json override
// the thresholds. Drop it with those bindings and the cron, and none of it is bundled.
// rateLimits: counts the calls of each function that declares `rateLimit` (refund_payment) against
// FUNCTION_RATE_LIMIT (docs/security.md); drop it with the binding when none does.
// mayMessage: the opt-out check of lib/optOuts.ts, which every message the framework sends a
// customer (a deferred call's follow-up) goes through, in the call's account.
export default createWorker({
  functions,
  accounts: serveAccounts({ ...accounts, store: readStoredAccount }),
  platform: platformFromEnv,
  openapi: openApiDocument,
  events,
  mcp: mcpOnDemand(() => import('agent-functions/mcp')),
  conversations: withApproval(conversationFeatures, {
    // The team a client business's approvals go to: its handoff contact (settings); the Worker's
    // HANDOFF_CONTACT_ID for the first account only (lib/team.ts).
    teamContact: teamContactOf,
  }),
  accountStore,
  rateLimits,
  metrics: callMetrics({ accounts }),
  mayMessage,
}) satisfies ExportedHandler<Env>;
