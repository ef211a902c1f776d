// The bindings only the events feature reads, kept out of the core Env so a Worker without events
// never names an events type.
import type { Env } from '../env.ts';
import type { QueuedDelivery } from './delivery.ts';
import type { EventLedger } from './ledger.ts';

/** The Worker's environment as the events endpoint and consumer read it. */
export type EventsEnv = Env & {
  /** The queue between the events endpoint and its consumer (wrangler.toml [[queues]]). */
  EVENTS_QUEUE?: Queue<QueuedDelivery>;
  /** Which deliveries were already handled (wrangler.toml; absent = no deduplication). */
  EVENT_LEDGER?: DurableObjectNamespace<EventLedger>;
};
