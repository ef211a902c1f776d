// The one event the benchmark delivers, shared by its Worker (bench/workers/projectWithEvents.ts) and the
// driver (bench/src/events.ts), which cannot import a Worker module under Node.

/** Its type, the one the benchmark Worker has a handler for. */
export const BENCH_EVENT_TYPE = 'deal.moved';

/** One delivery as the platform sends it (docs/platform-contract.md §7). */
export const EVENT_BODY = JSON.stringify({
  id: 'evt_bench_1',
  type: BENCH_EVENT_TYPE,
  data: { dealId: 'deal_42', stage: 'negotiation' },
});
