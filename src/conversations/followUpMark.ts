// The one attempt of a deferred call's follow-up, marked in the call ledger (`follow-up-<instance
// id>`, key `send`): the send marks it before its POST, and a call that answered in time after
// all marks it cancelled, so its workflow instance sends nothing.
import type { Env } from '../env.ts';
import type { CallLedger } from './ledger.ts';

/** How long a follow-up's attempt is remembered: longer than any workflow retries it. */
export const ATTEMPT_WINDOW_MS = 7 * 24 * 3600_000;
/** How long a send may hold its mark before a replay counts it as possibly sent. */
export const SEND_LEASE_MS = 60_000;
/** The ledger key of the one attempt, and what a cancelled one keeps. */
export const SEND_KEY = 'send';
export const CANCELLED = JSON.stringify({ ok: true, value: 'cancelled' });

/** The ledger of instance `id`'s follow-up, or undefined without the binding. */
export const followUpLedger = (env: Env, id: string): DurableObjectStub<CallLedger> | undefined =>
  (env as { CALL_LEDGER?: DurableObjectNamespace<CallLedger> }).CALL_LEDGER?.getByName(`follow-up-${id}`);

/**
 * Marks instance `id`'s follow-up cancelled, unless a send already holds it; true when cancelled.
 * @example if (await cancelFollowUp(env, instanceIdOf(requestId))) return result
 */
export const cancelFollowUp = async (env: Env, id: string): Promise<boolean> => {
  const ledger = followUpLedger(env, id);
  if (!ledger) return false;
  const claim = await ledger.claim(SEND_KEY, SEND_LEASE_MS, 0, ATTEMPT_WINDOW_MS);
  if (claim.verdict !== 'run') return claim.verdict === 'done' && claim.answer === CANCELLED;
  await ledger.complete(SEND_KEY, CANCELLED, ATTEMPT_WINDOW_MS);
  return true;
};
