// Testing conversations (docs/testing.md, "Testing conversations"): the keys the platform sends
// beside a call's arguments, and a deferred call's workflow run to its end and waited for.
import { introspectWorkflow } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { answerWithinForTests } from '../conversations/later.ts';
import type { DeferredOutcome } from '../conversations/workflow.ts';

/** The conversation keys the platform adds beside a call's arguments (docs/functions.md). */
export interface TestConversation {
  contactId: string;
  conversationId: string;
  channel: string;
}

/**
 * A conversation with `contactId`, to spread into a call's arguments as the platform adds it.
 * @example call('lookup_order', { orderNumber: '10452', email, ...conversation('ct_ann') })
 */
export const conversation = (
  contactId = 'ct_test',
  options: { conversationId?: string; channel?: string } = {},
): TestConversation => ({
  contactId,
  conversationId: options.conversationId ?? `cv_${contactId}`,
  channel: options.channel ?? 'whatsapp',
});

/** The binding of the deferred calls' workflow in wrangler.toml. */
export const DEFERRED_BINDING = 'DEFERRED_CALLS';

/** How `settleDeferred` runs: which workflow it watches, its retry delays, how soon calls defer. */
export interface SettleOptions {
  /** The workflow's binding, `DEFERRED_CALLS` by default. */
  binding?: string;
  /** Keep the workflow's real retry delays (5 s, doubling). */
  realDelays?: boolean;
  /**
   * Every `later` function called in `act` answers within this many ms instead of its own
   * answerWithinMs, so a test of a deferral does not wait for it (the function's own value holds
   * everywhere else, and in the deployed Worker).
   */
  answerWithinMs?: number;
}

/**
 * Runs `act` (calls that may be deferred) and then waits until the work and follow-up of every
 * call it deferred have ended, returning what `act` returned and each instance's outcome. The
 * workflow's retries run without their delays (5 s, doubling) unless `realDelays`, so a test sees
 * the failure message at once, not after about 76 s. The workflow reads the Worker's own bindings
 * (vitest.config.ts), not an env a test calls with.
 * @example const { result, outcomes } = await settleDeferred(() => call('lookup_order', args))
 * @example await settleDeferred(() => call('lookup_order', args), { answerWithinMs: 100 })
 */
export const settleDeferred = async <T>(
  act: () => Promise<T>,
  options: SettleOptions = {},
): Promise<{ result: T; outcomes: DeferredOutcome[] }> => {
  const binding = options.binding ?? DEFERRED_BINDING;
  const workflow = (env as unknown as Record<string, Workflow | undefined>)[binding];
  if (!workflow) {
    throw new Error(`settleDeferred: the tests' Worker has no ${binding} binding (wrangler.toml [[workflows]]).`);
  }
  const { answerWithinMs } = options;
  if (answerWithinMs !== undefined && !(Number.isInteger(answerWithinMs) && answerWithinMs > 0)) {
    throw new Error(`settleDeferred: answerWithinMs must be a whole number of ms above 0, not ${answerWithinMs}.`);
  }
  const introspector = await introspectWorkflow(workflow);
  try {
    if (!options.realDelays) {
      await introspector.modifyAll(async (m) => {
        await m.disableRetryDelays();
      });
    }
    answerWithinForTests.ms = answerWithinMs;
    let result: T;
    try {
      result = await act();
    } finally {
      answerWithinForTests.ms = undefined;
    }
    const outcomes: DeferredOutcome[] = [];
    for (const instance of await introspector.get()) {
      await instance.waitForStatus('complete');
      outcomes.push((await instance.getOutput()) as DeferredOutcome);
    }
    return { result, outcomes };
  } finally {
    await introspector.dispose();
  }
};
