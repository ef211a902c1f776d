// The bounds on what an approval may send (docs/security.md): the customer it names gets its
// outcome as a follow-up, so a request spends one of that contact's follow-ups (the budget of
// src/conversations/deferral.ts, in the contact's CallLedger) before it is opened, and gives it back
// when it opened nothing (a repeat, a refusal, an ask that could not be sent). The team's asks are
// bounded per account by the desk itself (TEAM_ASK_LIMIT, src/approval/desk.ts).
import type { Call } from '../call.ts';
import { contactLedgerNameOf } from '../conversations/callKey.ts';
import { followUpBudgets } from '../conversations/deferral.ts';
import type { CallLedger } from '../conversations/ledger.ts';
import { toBase64Url } from '../keys.ts';

/** Asks to the team one account may send in TEAM_ASK_WINDOW_MS, unless withApproval's `teamAskLimit` says otherwise. */
export const TEAM_ASK_LIMIT = 20;
/** The window of TEAM_ASK_LIMIT: 10 minutes, as the follow-up budget's. */
export const TEAM_ASK_WINDOW_MS: number = 10 * 60_000;

/** Long enough for the desk to open the request and the ask to be sent; a spend held longer is kept. */
const SPEND_LEASE_MS = 30_000;

/** A follow-up spent for one request: `release` gives it back when the request opened nothing. */
export interface SpentFollowUp {
  release(): Promise<void>;
}

/**
 * Spends one follow-up of `name` to `contactId` in the call's account: undefined when the contact
 * has had its follow-ups for now. Fails closed: without the ledger nothing is spent, and it throws.
 * @example const spent = await spendFollowUp(inv, fn.name, to.contactId); if (!spent) throw unavailable()
 */
export const spendFollowUp = async (inv: Call, name: string, contactId: string): Promise<SpentFollowUp | undefined> => {
  const namespace = (inv.env as { CALL_LEDGER?: DurableObjectNamespace<CallLedger> }).CALL_LEDGER;
  if (!namespace) throw new Error('CALL_LEDGER is not bound');
  const ledger = namespace.getByName(await contactLedgerNameOf(inv.account.name, contactId));
  // A key of its own: the spend alone, held under a lease; released, it gives the follow-up back.
  const key = `approval:${toBase64Url(crypto.getRandomValues(new Uint8Array(12)))}`;
  const claim = await ledger.claimSpending(key, SPEND_LEASE_MS, 0, 0, followUpBudgets(name));
  if (claim.verdict !== 'run') return undefined;
  return { release: async () => ledger.release(key) };
};
