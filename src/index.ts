import type { Env } from './env.ts';
import { functions } from './functions.gen.ts';
import { createRegistry } from './registry.ts';
import { createWorker } from './worker.ts';

const fetch = createWorker(createRegistry(functions));

export default { fetch } satisfies ExportedHandler<Env>;
