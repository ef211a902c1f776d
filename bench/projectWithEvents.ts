// Benchmark entry: the project Worker with the events option (createWorker's events): one webhook
// endpoint, its queue producer and consumer, and the deduplication ledger a project exports with it.
import { z } from 'zod';
import type { Env } from '../src/env.ts';
import { defineEvent } from '../src/webhook/define.ts';
import { serveEvents } from '../src/webhook/serve.ts';
import { createWorker } from '../src/worker.ts';
import { BENCH_EVENT_TYPE } from './event.ts';
import { functions } from './projectFunctions.ts';

export { EventLedger } from '../src/webhook/ledger.ts';

const dealMoved = defineEvent({
  type: BENCH_EVENT_TYPE,
  payload: z.looseObject({ data: z.looseObject({ dealId: z.string() }) }),
  handler: () => undefined,
});

export default createWorker({
  functions,
  events: serveEvents({ [BENCH_EVENT_TYPE]: dealMoved }),
}) satisfies ExportedHandler<Env>;
