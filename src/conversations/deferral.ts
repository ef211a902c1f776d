// One deferral for a call and its repeats: a `later` call repeated in one conversation within its
// window (a barge-in, a reissue, an impatient model) shares the first call's workflow instance
// and its one follow-up, whatever the function's effect. The first claims `later:<conversation and
// call key>` in its contact's CallLedger while it decides, then keeps its instance id there for the
// window; a repeat finds it and answers the same pending answer without creating anything. And a
// bound on follow-ups per contact (docs/security.md): whoever holds a function's url can name any
// contact, so however many calls name one, it gets at most FOLLOW_UP_BUDGET's messages in a window;
// a call past it runs as a plain call, answering the model and messaging no one. The claim spends
// the follow-up in the same step, one round trip, and a released claim gives it back: a call that
// answered in time after all messages no one.
import type { Call } from '../call.ts';
import type { Conversation } from '../conversation.ts';
import { DEFAULT_DEDUPE_WINDOW_MS } from '../define.ts';
import type { RegisteredFunction } from '../registry.ts';
import { callKeyOf, contactLedgerNameOf } from './callKey.ts';
import type { Budgets, CallLedger } from './ledger.ts';

/** The follow-ups one contact may be sent in `windowMs`: of one function, and of all together. */
export const FOLLOW_UP_BUDGET = { perFunction: 2, perContact: 3, windowMs: 10 * 60_000 } as const;

/** What one follow-up of function `name` spends in its contact's ledger (an approval's outcome spends it too). */
export const followUpBudgets = (name: string): Budgets => ({
  budgets: [
    { key: `follow-ups:${name}`, limit: FOLLOW_UP_BUDGET.perFunction },
    { key: 'follow-ups', limit: FOLLOW_UP_BUDGET.perContact },
  ],
  windowMs: FOLLOW_UP_BUDGET.windowMs,
});

/** How long the first call may take to decide (create its instance, or finish in time after all). */
const DECIDE_LEASE_MS = 15_000;

/**
 * What a claim found: this call is the first (its follow-up spent; it defers, then `keep`s its
 * instance or `release`s the claim and the follow-up), a repeat of a call that deferred to
 * `instanceId`, the contact had its follow-ups for now, or nothing certain (run plainly).
 */
export type DeferralClaim =
  | { verdict: 'first'; keep(instanceId: string): Promise<void>; release(): Promise<void> }
  | { verdict: 'repeat'; instanceId: string }
  | { verdict: 'no_follow_up' }
  | { verdict: 'undecided'; reason: 'no_call_ledger' | 'ledger_unavailable' | 'first_undecided' };

/**
 * Claims the deferral of `fn`'s call with `args` in `conversation`, spending one of its contact's
 * follow-ups, waiting up to `waitMs` for a first call still deciding.
 * @example const claim = await claimDeferral(fn, call, conversation, args, dueAt - Date.now())
 */
export const claimDeferral = async (
  fn: RegisteredFunction,
  inv: Call,
  conversation: Conversation,
  args: Record<string, unknown>,
  waitMs: number,
): Promise<DeferralClaim> => {
  const namespace = (inv.env as { CALL_LEDGER?: DurableObjectNamespace<CallLedger> }).CALL_LEDGER;
  if (!namespace) return { verdict: 'undecided', reason: 'no_call_ledger' };
  const dedupe = fn.policy?.dedupe;
  const windowMs = dedupe?.windowMs ?? DEFAULT_DEDUPE_WINDOW_MS;
  try {
    // Without a conversation id, the contact's calls that name none are one conversation.
    const identity = { conversation: conversation.conversationId ?? '', call: dedupe?.key ? dedupe.key(args) : args };
    const key = `later:${await callKeyOf(fn.name, identity)}`;
    const ledger = namespace.getByName(await contactLedgerNameOf(inv.account.name, conversation.contactId));
    const claim = await ledger.claimSpending(
      key,
      DECIDE_LEASE_MS,
      Math.max(0, waitMs),
      windowMs,
      followUpBudgets(fn.name),
    );
    if (claim.verdict === 'spent') return { verdict: 'no_follow_up' };
    if (claim.verdict === 'run') {
      return {
        verdict: 'first',
        keep: (instanceId) => ledger.complete(key, JSON.stringify({ instanceId }), windowMs),
        release: async () => ledger.release(key),
      };
    }
    const instanceId =
      claim.verdict === 'done' ? (JSON.parse(claim.answer) as { instanceId?: unknown }).instanceId : undefined;
    return typeof instanceId === 'string'
      ? { verdict: 'repeat', instanceId }
      : { verdict: 'undecided', reason: 'first_undecided' };
  } catch (error) {
    // Fails closed: without the ledger nothing says a message is allowed, so the call runs plainly.
    inv.log.warn('call_ledger_unavailable', { error: error instanceof Error ? error.name : typeof error });
    return { verdict: 'undecided', reason: 'ledger_unavailable' };
  }
};
