// Benchmark entry: the project Worker with the events option (createWorker's events): one webhook
// endpoint, its queue producer and consumer, and the deduplication ledger a project exports with it.

import type { Env } from 'agent-functions';
import { defineEvent } from 'agent-functions';
import { serveEvents } from 'agent-functions/events';
import { createWorker } from 'agent-functions/worker';
import { z } from 'zod';
import { BENCH_EVENT_TYPE } from './event.ts';
import { functions } from './projectFunctions.ts';

export { EventLedger } from 'agent-functions/events';

const dealMoved = defineEvent({
  type: BENCH_EVENT_TYPE,
  payload: z.looseObject({ data: z.looseObject({ dealId: z.string() }) }),
  handler: () => undefined,
});

export default createWorker({
  functions,
  events: serveEvents({ [BENCH_EVENT_TYPE]: dealMoved }),
}) satisfies ExportedHandler<Env>;
