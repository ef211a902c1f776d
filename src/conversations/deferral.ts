// One deferral for a call and its repeats: a `later` call repeated in one conversation within its
// window (a barge-in, a reissue, an impatient model) shares the first call's workflow instance
// and its one follow-up, whatever the function's effect. The first claims `later:<call key>` in
// the conversation's CallLedger while it decides, then keeps its instance id there for the window;
// a repeat finds it and answers the same pending answer without creating anything. And a bound on
// follow-ups per contact (docs/security.md): whoever holds a function's url can name any contact,
// so however many calls name one, it gets at most FOLLOW_UP_BUDGET's messages in a window; a call
// past it runs as a plain call, answering the model and messaging no one.
import type { Call } from '../call.ts';
import type { Conversation } from '../conversation.ts';
import { DEFAULT_DEDUPE_WINDOW_MS } from '../define.ts';
import type { RegisteredFunction } from '../registry.ts';
import { callKeyOf, contactLedgerNameOf, ledgerNameOf } from './callKey.ts';
import type { CallLedger } from './ledger.ts';

/** The follow-ups one contact may be sent in `windowMs`: of one function, and of all together. */
export const FOLLOW_UP_BUDGET = { perFunction: 2, perContact: 3, windowMs: 10 * 60_000 } as const;

/** How long the first call may take to decide (create its instance, or finish in time after all). */
const DECIDE_LEASE_MS = 15_000;

/**
 * What a claim found: this call is the first (it defers, then `keep`s its instance or `release`s
 * the claim), a repeat of a call that deferred to `instanceId`, or nothing certain (run plainly).
 */
export type DeferralClaim =
  | { verdict: 'first'; keep(instanceId: string): Promise<void>; release(): Promise<void> }
  | { verdict: 'repeat'; instanceId: string }
  | { verdict: 'undecided'; reason: 'no_call_ledger' | 'ledger_unavailable' | 'first_undecided' };

/**
 * Claims the deferral of `fn`'s call with `args` in `conversation`, waiting up to `waitMs` for a
 * first call still deciding.
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
    const key = `later:${await callKeyOf(fn.name, dedupe?.key ? dedupe.key(args) : args)}`;
    // Without a conversation id, the contact's calls that name none are one conversation.
    const ledger = namespace.getByName(
      await ledgerNameOf(inv.account.name, conversation.contactId, conversation.conversationId ?? ''),
    );
    const claim = await ledger.claim(key, DECIDE_LEASE_MS, Math.max(0, waitMs), windowMs);
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
    inv.log.warn('call_ledger_unavailable', { error: error instanceof Error ? error.name : typeof error });
    return { verdict: 'undecided', reason: 'ledger_unavailable' };
  }
};

/**
 * Takes one follow-up of `fn` from `contactId`'s budget: false (nothing sent then) when the contact
 * had its share in the window, or when the budget cannot be read (fails closed: the call runs plainly).
 * @example if (!(await spendFollowUp(fn, call, to.contactId))) return done(await settled)
 */
export const spendFollowUp = async (fn: RegisteredFunction, inv: Call, contactId: string): Promise<boolean> => {
  const namespace = (inv.env as { CALL_LEDGER?: DurableObjectNamespace<CallLedger> }).CALL_LEDGER;
  if (!namespace) return false;
  try {
    const ledger = namespace.getByName(await contactLedgerNameOf(inv.account.name, contactId));
    return await ledger.spend(
      [
        { key: `follow-ups:${fn.name}`, limit: FOLLOW_UP_BUDGET.perFunction },
        { key: 'follow-ups', limit: FOLLOW_UP_BUDGET.perContact },
      ],
      FOLLOW_UP_BUDGET.windowMs,
    );
  } catch (error) {
    inv.log.warn('call_ledger_unavailable', { error: error instanceof Error ? error.name : typeof error });
    return false;
  }
};
