import type { Env } from './env.ts';
import { functions } from './functions.gen.ts';
import { createRegistry } from './registry.ts';
import { createWorker } from './worker.ts';

// Durable Object classes must be exported by the entry module (wrangler.toml binds them).
export { BookingCalendar } from '../functions/_calendar.ts';
export { ContactDirectory } from '../functions/_contacts.ts';
export { ReplayGuard } from './replay.ts';

const fetch = createWorker(createRegistry(functions));

export default { fetch } satisfies ExportedHandler<Env>;
