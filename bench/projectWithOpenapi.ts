// Benchmark entry: the project Worker serving GET /openapi.json (createWorker's openapi option).
import type { Env } from '../src/env.ts';
import { openApiDocument } from '../src/openapi.ts';
import { createWorker } from '../src/worker.ts';
import { functions } from './projectFunctions.ts';

export default createWorker({ functions, openapi: openApiDocument }) satisfies ExportedHandler<Env>;
