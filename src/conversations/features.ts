// The conversation features a Worker opts in to (createWorker's `conversations` option): without
// it, neither deduplication nor deferral is bundled, and writes and `later` functions run plainly.
// They plug into the core as a CallFeature (src/call.ts): the pipeline hands them the call.
import type { Call, CallFeature } from '../call.ts';
import { FunctionError } from '../errors.ts';
import type { RegisteredFunction } from '../registry.ts';
import type { FeatureRoute } from '../route.ts';
import { checkedPolicy } from './check.ts';
import { deduplicated } from './dedupe.ts';
import { runLater } from './later.ts';
import { setDeferredRuntime } from './runtime.ts';

/** Deduplicated writes and deferred calls, as createWorker takes them. */
export interface ConversationFeatures extends CallFeature {
  /** Each definition's policy, its options checked, as it is translated. */
  check: typeof checkedPolicy;
  /** Gives the Worker's functions and pipeline to its deferred calls' workflow instances. */
  register: typeof setDeferredRuntime;
  /** Paths a layer over the feature serves (approvals' page, src/approval/); createWorker routes them. */
  routes?: readonly FeatureRoute[];
}

const unreadableConversation = () =>
  new FunctionError(
    400,
    'conversation_unreadable',
    'This was not done: the conversation this request comes from could not be identified, so it could not be made sure it happens only once. Nothing has changed. Tell the customer you cannot do it right now and that a colleague will follow up.',
  );

/** A read runs as is; a `later` function may defer; a write in a conversation runs once in its window. */
const runInConversation = (fn: RegisteredFunction, call: Call, args: Record<string, unknown>, run: () => unknown) => {
  const { later, dedupe } = fn.policy ?? {};
  const work = later ? () => runLater(fn, call, args, run) : run;
  if (!dedupe) return work();
  if (call.unreadable) {
    // Identifiers were sent but cannot be read: a write would run again on every repeat, so it
    // is refused, never run twice unnoticed (docs/functions.md "Calls that repeat").
    call.log.warn('dedupe_off', { reason: 'unreadable_identifier', fields: call.unreadable.join(', ') });
    throw unreadableConversation();
  }
  const conversationId = call.conversation?.conversationId;
  // Without a conversation id nothing says two calls are one customer's repeat: each runs.
  return conversationId ? deduplicated(fn, call, args, conversationId, work) : work();
};

/**
 * Turns on deduplicated writes and deferred calls (docs/functions.md "In a conversation").
 * @example createWorker({ functions, conversations: conversationFeatures })
 */
export const conversationFeatures: ConversationFeatures = {
  run: runInConversation,
  check: checkedPolicy,
  register: setDeferredRuntime,
};
