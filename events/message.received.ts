import { defineEvent } from 'agent-functions';
import { decideByReply } from 'agent-functions/approval';
import { z } from 'zod';
import { consentOf, recordConsent } from '../lib/optOuts.ts';

// A customer who writes "STOP" is never messaged again by this project (lib/optOuts.ts keeps the
// list; sendToCustomer checks it); "START" opts them back in. The payload shape is our assumption
// (docs/platform-contract.md §7: the spec shows none); unknown fields pass. Consent is the
// account's own: the same contact id in another account is another customer.
export default defineEvent({
  type: 'message.received',
  payload: z.looseObject({
    data: z.looseObject({
      message: z.looseObject({
        contactId: z.string().min(1),
        text: z.string(),
      }),
    }),
  }),
  handler: async ({ data }, { env, log, account }) => {
    // The team contact's "approve K7QM" / "deny K7QM" decides that approval request (docs/functions.md
    // "Approval"); deciding twice changes nothing, so a repeated delivery is harmless.
    const reply = await decideByReply(env, account, data.message);
    if (reply) {
      log.info('approval_reply', { outcome: reply });
      return;
    }
    const consent = consentOf(data.message.text);
    if (!consent) return;
    // Setting a flag is idempotent: a repeated delivery writes the same thing again.
    await recordConsent(env, account, data.message.contactId, consent === 'stop');
    log.info(consent === 'stop' ? 'customer_opted_out' : 'customer_opted_in');
  },
});
