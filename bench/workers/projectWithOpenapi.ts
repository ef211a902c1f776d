// Benchmark entry: the project Worker serving GET /openapi.json (createWorker's openapi option).
import type { Env } from 'agent-functions';
import { openApiDocument } from 'agent-functions/openapi';
import { createWorker } from 'agent-functions/worker';
import { functions } from './projectFunctions.ts';

export default createWorker({ functions, openapi: openApiDocument }) satisfies ExportedHandler<Env>;
