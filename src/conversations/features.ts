// The conversation features a Worker opts in to (createWorker's `conversations` option): without
// it, neither deduplication nor deferral is bundled, and writes and `later` functions run plainly.

import type { Env } from '../env.ts';
import type { RegisteredFunction } from '../registry.ts';
import { checkedPolicy } from './check.ts';
import { deduplicated } from './dedupe.ts';
import { runLater } from './later.ts';
import { setDeferredRuntime } from './runtime.ts';
import type { CallScope } from './scope.ts';

/** A path a feature serves beside the functions (`/approvals/*`: it and every path under it), and its method when only one. */
export type FeatureRoute = [
  path: string,
  handler: (request: Request, env: Env, ctx: ExecutionContext) => Response | Promise<Response>,
  method?: string,
];

/** Deduplicated writes and deferred calls, as createWorker takes them. */
export interface ConversationFeatures {
  /** Runs one validated call (`run`: the handler under its time limit), deduplicated or deferred as its policy says. */
  run: typeof runInConversation;
  /** Each definition's policy, its options checked, as it is translated. */
  check: typeof checkedPolicy;
  /** Gives the Worker's functions to its deferred calls' workflow instances. */
  register: typeof setDeferredRuntime;
  /** Paths a layer over the feature serves (approvals' page, src/approval/); createWorker routes them. */
  routes?: readonly FeatureRoute[];
}

/** A read runs as is; a `later` function may defer; a write in a conversation runs once in its window. */
const runInConversation = (
  fn: RegisteredFunction,
  inv: CallScope,
  args: Record<string, unknown>,
  run: () => unknown,
): unknown => {
  const { later, dedupe } = fn.policy ?? {};
  const call = later ? () => runLater(fn, inv, args, run) : run;
  const conversationId = inv.conversation?.conversationId;
  // Without a conversation id nothing says two calls are one customer's repeat: each runs.
  return dedupe && conversationId ? deduplicated(fn, inv, args, conversationId, call) : call();
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
