// Who a client business's team is on the platform (the inbox handoff_to_human writes to, and the
// contact worker.ts asks for approvals): the account's own settings handoffContactId and
// handoffChannel. The Worker-wide HANDOFF_CONTACT_ID and HANDOFF_CHANNEL stand in for the first
// account only: a contact id means something only within its own account, so another account's
// approvals and hand-offs never go to whoever holds that id there (docs/security.md).
import type { CallAccount, Env } from 'agent-functions';

/**
 * The team contact of `account`, or undefined when it has none (approvals are then unavailable,
 * and handoff_to_human refuses).
 * @example const team = teamContactOf(context.env, context.account)
 */
export const teamContactOf = (env: Env, account: CallAccount): { contactId: string; channel: string } | undefined => {
  const contactId = account.settings.handoffContactId ?? (account.first ? env.HANDOFF_CONTACT_ID : undefined);
  const channel = account.settings.handoffChannel ?? (account.first ? env.HANDOFF_CHANNEL : undefined) ?? 'whatsapp';
  return contactId ? { contactId, channel } : undefined;
};
