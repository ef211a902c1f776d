// Benchmark entry: the project Worker with context.platform turned on (createWorker's platform option).
import type { Env } from '../src/env.ts';
import { platformFromEnv } from '../src/platform/fromEnv.ts';
import { createWorker } from '../src/worker.ts';
import { functions } from './projectFunctions.ts';

export default createWorker({ functions, platform: platformFromEnv }) satisfies ExportedHandler<Env>;
