// Benchmark entry: the project Worker with context.platform turned on (createWorker's platform option).
import type { Env } from 'agent-functions';
import { platformFromEnv } from 'agent-functions/platform';
import { createWorker } from 'agent-functions/worker';
import { functions } from './projectFunctions.ts';

export default createWorker({ functions, platform: platformFromEnv }) satisfies ExportedHandler<Env>;
