// The conversation features a Worker opts in to (createWorker's `conversations` option): without
// it, neither deduplication nor deferral is bundled, and writes and `later` functions run plainly.
import { deduplicated } from './dedupe.ts';
import { runLater } from './later.ts';
import { setDeferredRuntime } from './runtime.ts';

/** Deduplicated writes and deferred calls, as createWorker takes them. */
export interface ConversationFeatures {
  deduplicated: typeof deduplicated;
  runLater: typeof runLater;
  /** Gives the Worker's functions to its deferred calls' workflow instances. */
  register: typeof setDeferredRuntime;
}

/**
 * Turns on deduplicated writes and deferred calls (docs/functions.md "In a conversation").
 * @example createWorker({ functions, conversations: conversationFeatures })
 */
export const conversationFeatures: ConversationFeatures = {
  deduplicated,
  runLater,
  register: setDeferredRuntime,
};
