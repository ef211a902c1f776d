// The Worker entry (wrangler.toml `main`), yours to edit: it hands the framework your functions and
// exports the Durable Object classes wrangler.toml binds. Remove an export with its binding.

import { withApproval } from 'agent-functions/approval';
import { conversationFeatures } from 'agent-functions/conversations';
import { openApiDocument } from 'agent-functions/openapi';
import { platformFromEnv } from 'agent-functions/platform';
import { createWorker } from 'agent-functions/worker';
import { events } from './generated/events.ts';
import { functions } from './generated/functions.ts';
import { DEFAULT_ACCOUNT, isOptedOut } from './lib/optOuts.ts';

export { ApprovalDesk, ApprovalRequest } from 'agent-functions/approval';
export { CallLedger, DeferredCall } from 'agent-functions/conversations';
export { EventLedger } from 'agent-functions/events';
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
// withApproval: functions with `approval` (refund_payment above 100 EUR) ask the team first, on the
// APPROVALS workflow and the APPROVAL_DESK Durable Object; the team is handoff_to_human's inbox.
// mayMessage: the opt-out check of lib/optOuts.ts, which every message the framework sends a
// customer (a deferred call's follow-up) goes through.
export default createWorker({
  functions,
  platform: platformFromEnv,
  openapi: openApiDocument,
  events,
  mcp: () => import('agent-functions/mcp'),
  conversations: withApproval(conversationFeatures, {
    teamContact: (env) =>
      env.HANDOFF_CONTACT_ID
        ? { contactId: env.HANDOFF_CONTACT_ID, channel: env.HANDOFF_CHANNEL ?? 'whatsapp' }
        : undefined,
  }),
  // A function's follow-up goes out from its platform client, the default account's.
  mayMessage: async (env, { contactId }) => !(await isOptedOut(env, DEFAULT_ACCOUNT, contactId)),
}) satisfies ExportedHandler<Env>;
