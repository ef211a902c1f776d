// The team decides by replying on the platform too (docs/functions.md "Approval"): "approve K7QM"
// or "deny K7QM" from the account's team contact, read by the project's message.received handler.
// The same desk decides it, once; a message from anyone else is not a decision.
import { actingIn } from '../conversations/runtime.ts';
import type { Env } from '../env.ts';
import { DEFAULT_ACCOUNT } from '../keys.ts';
import { createLogger } from '../log.ts';
import { deskOf } from './ask.ts';
import { wake } from './page.ts';
import { approvalRuntimes } from './runtime.ts';

const REPLY = /^\s*(approve|approved|yes|deny|denied|no)\s+([A-Za-z0-9]{4})\s*[.!]?\s*$/i;

/** What a reply did: decided, already decided before (the first decision stands), expired, or no such code. */
export type ReplyOutcome = 'approved' | 'denied' | 'already_decided' | 'expired' | 'unknown_code';

/**
 * Decides the request a reply names, when `message` is one from `account`'s (default: "default") team contact;
 * undefined for any other message (it is then handled as usual).
 * @example if (await decideByReply(env, account, data.message)) return;
 */
export const decideByReply = async (
  env: Env,
  account: string | undefined,
  message: { contactId: string; text: string },
): Promise<ReplyOutcome | undefined> => {
  const match = REPLY.exec(message.text);
  account ??= DEFAULT_ACCOUNT;
  const desk = deskOf(env, account);
  if (!match || !desk) return undefined;
  const log = createLogger({ account });
  // Whose team: the account's own (its settings), as the ask went to it.
  const found = await actingIn(approvalRuntimes(), env, account, log);
  if (!found) return undefined;
  const team = await found.runtime.teamContact(env, found.account.account);
  if (!team || team.contactId !== message.contactId) return undefined;
  const approve = /^(approve|approved|yes)$/i.test(match[1] as string);
  const code = (match[2] as string).toUpperCase();
  const result = await desk.decide({ code }, approve, `contact:${message.contactId}`);
  if (result.outcome === 'unknown') {
    log.info('approval_reply_unknown');
    return 'unknown_code';
  }
  if (result.outcome !== 'decided') return result.outcome === 'expired' ? 'expired' : 'already_decided';
  log.info('approval_decided', {
    approval: result.view.id,
    decision: result.view.state,
    decidedBy: result.view.decidedBy,
    decidedAt: result.view.decidedAt,
  });
  await wake(env, result.view.id, result.view);
  return approve ? 'approved' : 'denied';
};
