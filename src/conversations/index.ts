// agent-functions/conversations: the Durable Object and the workflow behind deduplicated writes
// and deferred calls (docs/functions.md). worker.ts exports both for its wrangler.toml bindings.
export type { Conversation } from '../conversation.ts';
export type { ConversationFeatures } from './features.ts';
export { conversationFeatures } from './features.ts';
export type { FollowUpOutcome } from './followUp.ts';
export type { PendingAnswer } from './later.ts';
export type { CallClaim } from './ledger.ts';
export { CallLedger } from './ledger.ts';
export type { DeferredParams } from './params.ts';
export type { MayMessage } from './runtime.ts';
export type { DeferredOutcome } from './workflow.ts';
export { DEFAULT_FAILURE, DeferredCall } from './workflow.ts';
