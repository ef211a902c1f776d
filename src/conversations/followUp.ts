// The one message a deferred call sends the customer, at most once. POST /v1/messages takes no
// idempotency key, so a send whose answer was lost (5xx, timeout, connection cut) may have been
// applied: it is never repeated, only logged and kept. The attempt is marked in the call ledger
// before the POST, so a workflow step replayed after a crash never sends again either.

import type { ResolvedAccount } from '../accounts/resolve.ts';
import type { Conversation } from '../conversation.ts';
import type { Env } from '../env.ts';
import type { Logger } from '../log.ts';
import { PlatformError } from '../platform/client/errors.ts';
import { ATTEMPT_WINDOW_MS, CANCELLED, followUpLedger, SEND_KEY, SEND_LEASE_MS } from './followUpMark.ts';
import type { DeferredRuntime } from './runtime.ts';

/**
 * How a follow-up ended: sent, refused by the opt-out check, possibly sent (never retried),
 * attempted before (a replay), or cancelled (the call answered in time after all).
 */
export type FollowUpOutcome = 'sent' | 'opted_out' | 'ambiguous' | 'already_attempted' | 'cancelled';

/**
 * Sends `text` to the conversation's contact on its channel, from the call's account, unless the
 * project's check refuses (opt-out) or an attempt `id` was already made. Throws a clear refusal
 * (nothing sent), so the step retries.
 * @example await sendFollowUp(runtime, env, log, instanceId, account, conversation, 'Your order is on its way.')
 */
export const sendFollowUp = async (
  runtime: DeferredRuntime,
  env: Env,
  log: Logger,
  id: string,
  from: ResolvedAccount,
  to: Conversation & { channel: string },
  text: string,
): Promise<FollowUpOutcome> => {
  const { contactId, channel } = to;
  const ledger = followUpLedger(env, id);
  if (!ledger) throw new Error('CALL_LEDGER is not bound: a follow-up cannot be sent at most once');
  if (!from.platform) throw new Error('createWorker has no platform option: a follow-up cannot be sent');
  const account = from.account.name;
  if (runtime.mayMessage && !(await runtime.mayMessage(env, { account, contactId, channel }))) {
    log.info('follow_up_opted_out');
    return 'opted_out';
  }
  // Before the attempt is marked: an account that cannot reach the platform (no key) sent nothing.
  const platform = from.platform(AbortSignal.timeout(30_000), log);
  const claim = await ledger.claim(SEND_KEY, SEND_LEASE_MS, 0, ATTEMPT_WINDOW_MS);
  if (claim.verdict === 'done' && claim.answer === CANCELLED) {
    log.info('follow_up_cancelled', { hint: 'the call answered in time' });
    return 'cancelled';
  }
  if (claim.verdict !== 'run') {
    log.warn('follow_up_not_repeated', { hint: 'an earlier attempt may have sent it; check the conversation' });
    return 'already_attempted';
  }
  try {
    const message = await platform.messages.send({ contactId, channel, text });
    await ledger.complete(SEND_KEY, JSON.stringify({ ok: true, value: message.id }), ATTEMPT_WINDOW_MS);
    log.info('follow_up_sent');
    return 'sent';
  } catch (error) {
    if (error instanceof PlatformError && !error.ambiguous) {
      // A clear refusal: nothing was sent, so the step may try again, once the key is free again
      // (not awaited, the retry could find it still held and never send).
      await Promise.resolve(ledger.release(SEND_KEY)).catch(() => {});
      log.warn('follow_up_refused', { status: error.status, code: error.code });
      throw error;
    }
    await ledger
      .complete(SEND_KEY, JSON.stringify({ ok: false, status: 502, code: 'ambiguous', message: '' }), ATTEMPT_WINDOW_MS)
      .catch(() => {});
    log.error('follow_up_ambiguous', {
      error: error instanceof Error ? error.name : typeof error,
      hint: 'the platform may or may not have delivered it; it is not sent again: check the conversation',
    });
    return 'ambiguous';
  }
};
