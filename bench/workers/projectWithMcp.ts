// Benchmark entry: the project Worker serving every function as an MCP tool on /mcp (createWorker's
// mcp option). The module is imported on the first MCP request, so start-up pays for compiling it only.
import type { Env } from 'agent-functions';
import { createWorker, mcpOnDemand } from 'agent-functions/worker';
import { functions } from './projectFunctions.ts';

export default createWorker({
  functions,
  mcp: mcpOnDemand(() => import('agent-functions/mcp')),
}) satisfies ExportedHandler<Env>;
