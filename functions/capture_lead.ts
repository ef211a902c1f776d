import { defineFunction } from 'agent-functions';
import { z } from 'zod';
import { contactFor } from '../lib/contacts.ts';
import { normalizePhone, phoneSchema } from '../lib/customer.ts';

// How this business qualifies a lead: edit to fit. Budget is per month, in CURRENCY.
const CURRENCY = 'USD';
const MIN_MONTHLY_BUDGET = 500;
const SOON = new Set(['now', 'this_month']);
// Channel identifiers beyond the spec's "whatsapp" are assumptions; match your account's.
const CHANNELS = ['whatsapp', 'instagram', 'messenger', 'sms', 'telegram', 'email', 'webchat'] as const;

type Tier = 'hot' | 'warm' | 'cold';

const NEXT_STEP: Record<Tier, string> = {
  hot: 'This is a strong lead: offer a call with the sales team now, using check_availability and book_appointment.',
  warm: 'This lead may be a fit: ask about what is still unknown, then offer a call if the answers fit.',
  cold: 'This lead is not ready to buy: answer their questions, share what they need, and offer to follow up later. Do not push for a call.',
};

/** Budget and timing decide: both good is hot, either one bad is cold, anything unsaid is warm. */
const tierOf = (budgetFits: boolean | undefined, soon: boolean | undefined): Tier => {
  if (budgetFits === false) return 'cold';
  if (budgetFits && soon) return 'hot';
  if (soon === false && !budgetFits) return 'cold';
  return 'warm';
};

export default defineFunction({
  description: `Saves a customer interested in our services as a sales lead (one contact per phone, never a duplicate), qualified by need, monthly budget and start. Call it once they have said what they need and given their name and phone; pass budget and timeline if said. For a plan's price, use quote_price. Follow the "nextStep" it returns.`,
  parameters: z.object({
    name: z.string().trim().min(1).max(100).describe("The customer's name"),
    phone: phoneSchema('The customer\'s phone number, like "+44 7700 900123"'),
    channel: z.enum(CHANNELS).default('whatsapp').describe('Where the customer writes'),
    need: z.string().trim().min(3).max(500).describe('What the customer needs, in their words'),
    monthlyBudget: z
      .number()
      .min(0)
      .max(10_000_000)
      .optional()
      .describe(`Monthly budget in ${CURRENCY}; leave out if not said`),
    timeline: z
      .enum(['now', 'this_month', 'this_quarter', 'later', 'unknown'])
      .default('unknown')
      .describe('When they want to start'),
  }),
  secrets: ['PLATFORM_API_KEY'],
  vars: ['PLATFORM_BASE_URL'],
  // Writes a contact on the platform, one per phone number.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  handler: async ({ name, phone, channel, need, monthlyBudget, timeline }, context) => {
    const { log } = context;
    const budgetFits = monthlyBudget === undefined ? undefined : monthlyBudget >= MIN_MONTHLY_BUDGET;
    const soon = timeline === 'unknown' ? undefined : SOON.has(timeline);
    const tier = tierOf(budgetFits, soon);
    const unknown = [
      ...(monthlyBudget === undefined ? ['their monthly budget'] : []),
      ...(timeline === 'unknown' ? ['when they want to start'] : []),
    ];
    const { contactId, created } = await contactFor(context, { name, phone: normalizePhone(phone) as string, channel });
    // The tier, never the customer's words or number: logs are not a CRM.
    log.info('lead_captured', { tier, created });
    const ask = unknown.length && tier !== 'cold' ? ` Still unknown: ${unknown.join(' and ')}; ask about it.` : '';
    return {
      contactId,
      newContact: created,
      qualification: tier,
      unknown,
      nextStep: `${NEXT_STEP[tier]}${ask}`,
      summary: `${created ? 'Saved' : 'Found'} ${name} as a contact; lead is ${tier}. Need: ${need}`,
    };
  },
});
