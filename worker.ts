// The Worker entry (wrangler.toml `main`), yours to edit: it hands the framework your functions and
// exports the Durable Object classes wrangler.toml binds. Remove an export with its binding.
import { events } from './generated/events.ts';
import { functions } from './generated/functions.ts';
import { openApiDocument } from './src/openapi.ts';
import { platformFromEnv } from './src/platform/fromEnv.ts';
import { createWorker } from './src/worker.ts';

export { BookingCalendar } from './lib/calendar.ts';
export { ContactDirectory } from './lib/contacts.ts';
export { OptOutList } from './lib/optOuts.ts';
export { EventLedger } from './src/webhook/ledger.ts';

// platform: context.platform for handoff_to_human and capture_lead; drop it if no function calls the platform.
// openapi: GET /openapi.json for platforms that import OpenAPI; drop it to leave it out of the bundle.
// events: the handlers in events/ (generated/events.ts; undefined when the folder is empty).
// mcp: every function as an MCP tool on /mcp (README "MCP"), imported on the first MCP request;
// drop it and none of it is bundled.
export default createWorker({
  functions,
  platform: platformFromEnv,
  openapi: openApiDocument,
  events,
  mcp: () => import('./src/mcp/index.ts'),
}) satisfies ExportedHandler<Env>;
