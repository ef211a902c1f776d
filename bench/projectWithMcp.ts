// Benchmark entry: the project Worker serving every function as an MCP tool on /mcp (createWorker's
// mcp option). The module is imported on the first MCP request, so start-up pays for compiling it only.
import type { Env } from '../src/env.ts';
import { createWorker } from '../src/worker.ts';
import { functions } from './projectFunctions.ts';

export default createWorker({ functions, mcp: () => import('../src/mcp/index.ts') }) satisfies ExportedHandler<Env>;
