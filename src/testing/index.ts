// agent-functions/testing: what a project's tests need, inside workerd (the vitest integration):
// calling functions as the platform does, running event handlers, the outbound mock for third-party
// APIs, and the checks every function must pass. The local platform itself, as a test double,
// comes from the CLI package (agent-functions-cli/platform), so this package never depends on it.
export type { Caller, CallOptions, ErrorAnswer, FetchTarget, WorkerEntry } from './call.ts';
export { bareContext, call, errorOf, keyOf, ORIGIN, send, through, withEnv } from './call.ts';
export type { SettleOptions, TestConversation } from './conversations.ts';
export { conversation, DEFERRED_BINDING, settleDeferred } from './conversations.ts';
export { testDefinitions } from './definitions.ts';
export type { ConsumeResult, EventsWorker } from './events.ts';
export { EVENTS_URL, eventsWorker, forgetSigningSecrets, queued, signedDelivery } from './events.ts';
export type { Outbound, OutboundHandler } from './outbound.ts';
export { hang, mockOutbound } from './outbound.ts';
