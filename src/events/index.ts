// agent-functions/events: the events feature a Worker opts in to. The generated events registry
// calls serveEvents; worker.ts exports EventLedger for its Durable Object binding.
export type { QueuedDelivery } from './delivery.ts';
export type { EventsEnv } from './env.ts';
export { EventLedger } from './ledger.ts';
export type { EventsRoute, EventsService, ServedEvents } from './serve.ts';
export { serveEvents } from './serve.ts';
