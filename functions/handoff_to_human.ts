import { defineFunction, FunctionError } from 'agent-functions';
import { PlatformError } from 'agent-functions/platform';
import { z } from 'zod';
import { phoneSchema } from '../lib/customer.ts';
import { teamContactOf } from '../lib/team.ts';

const REASONS = {
  customer_asked: 'the customer asked for a person',
  complaint: 'a complaint',
  complex_question: 'a question the agent cannot answer',
  sales_opportunity: 'a sales opportunity',
  other: 'another reason',
} as const;

export default defineFunction({
  description:
    'Hands the conversation to the human team with a summary you write, so a colleague can take over. Call it once when the customer asks for a person, complains (a broken or wrong order), is upset, or needs what you cannot do. Then tell the customer what the result\'s "tellCustomer" says; do not promise more.',
  parameters: z.object({
    summary: z
      .string()
      .trim()
      .min(20)
      .max(1500)
      .describe('For the colleague: who the customer is, what they want, what was tried, what they wait for'),
    reason: z
      .enum(Object.keys(REASONS) as [keyof typeof REASONS])
      .describe('"customer_asked" when they ask for a person, "complaint" when they complain, else the closest'),
    urgency: z
      .enum(['normal', 'urgent'])
      .default('normal')
      .describe('"urgent" only when waiting would harm the customer'),
    customerName: z.string().trim().min(1).max(100).optional().describe("The customer's name, if known"),
    customerPhone: phoneSchema('The customer\'s phone number, if known, like "+44 7700 900123"').optional(),
  }),
  secrets: ['PLATFORM_API_KEY'],
  vars: ['PLATFORM_BASE_URL', 'HANDOFF_CONTACT_ID'],
  // Sends a message on the platform each time it runs.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  // One hand-off per conversation in 10 minutes, whatever the summary says: a repeat gets the first answer.
  dedupe: { key: () => 'handoff' },
  handler: async ({ summary, reason, urgency, customerName, customerPhone }, context) => {
    const { env, log, account } = context;
    // Each client business has its own team: the account's setting (HANDOFF_CONTACT_ID for the first account only).
    const team = teamContactOf(env, account);
    if (!team) {
      log.error('handoff_not_configured', {
        hint: account.first
          ? "set handoffContactId in this account's settings (platform.accounts.json), or HANDOFF_CONTACT_ID, to the platform contact id of the team inbox"
          : "set handoffContactId in this account's settings (platform.accounts.json) to the platform contact id of its own team inbox: HANDOFF_CONTACT_ID serves the first account only",
      });
      throw new FunctionError(
        503,
        'not_configured',
        'Handing over to the team is not set up. Apologise, and tell the customer how else to reach a person if you know it.',
      );
    }
    const customer = [customerName, customerPhone].filter(Boolean).join(', ') || 'not given';
    const text = [
      `${urgency === 'urgent' ? 'URGENT handoff' : 'Handoff'}: ${REASONS[reason]}.`,
      `Customer: ${customer}.`,
      summary,
    ].join('\n');
    let messageId: string;
    try {
      // context.platform is created on first use: a 503 naming the missing secret if unconfigured.
      const message = await context.platform.messages.send({ ...team, text });
      messageId = message.id;
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error;
      log.warn('handoff_failed', { status: error.status, code: error.code, ambiguous: error.ambiguous });
      if (error.ambiguous) {
        // The platform may have delivered it: never hand off again for this conversation's repeat.
        throw new FunctionError(
          502,
          'handoff_uncertain',
          'The message to the team may or may not have gone through. Do not call this function again: tell the customer a colleague should be in touch, and that they can ask again if nobody is.',
          { mayHaveApplied: true },
        );
      }
      throw new FunctionError(
        502,
        'handoff_failed',
        'The team could not be reached just now, so nobody has been told yet. Apologise, keep helping the customer yourself, and you may try this function once more in a minute.',
      );
    }
    log.info('handed_off', { reason, urgency });
    return {
      handedOff: true,
      messageId,
      tellCustomer:
        urgency === 'urgent'
          ? 'A colleague has been alerted and will take over this conversation as soon as possible.'
          : 'A colleague has the details and will reply in this conversation during opening hours.',
    };
  },
});
