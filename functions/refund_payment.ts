import { defineFunction, FunctionError } from 'agent-functions';
import { z } from 'zod';
import { orderNumberSchema } from '../lib/customer.ts';
import { storeOf } from '../lib/store.ts';

// The store's refunds API as this example assumes it: POST {STORE_API_URL}/orders/{number}/refunds
// with "Authorization: Bearer {STORE_API_KEY}" and { amountCents, reason }, answering { id } (201)
// or 404 for an unknown order. A refund above REFUND_LIMIT_EUROS waits for a colleague's approval
// (docs/functions.md "Approval"): the team contact is asked on the platform, and the customer hears
// the outcome as one message.
const refundUrl = (base: string, number: string) =>
  `${base.replace(/\/+$/, '')}/orders/${encodeURIComponent(number)}/refunds`;

/** Refunds above this many euros need a colleague's approval. */
export const REFUND_LIMIT_EUROS = 100;

const euros = (amount: number) => `€${amount.toFixed(2)}`;

export default defineFunction({
  description:
    "Pays money back to the customer's original payment method for a purchase, when they ask for a refund or want their money back after a return, and you know the order number and the amount. Call it once per refund: a second call would pay again. A colleague approves refunds above 100 euros first: then tell the customer it is with a colleague. Not for delivery status (get_order_status), nor for a complaint without a refund request (handoff_to_human).",
  parameters: z.object({
    orderNumber: orderNumberSchema('The number on the purchase confirmation, like "10452"'),
    amountEuros: z
      .number()
      .positive()
      .max(10_000)
      .describe('The amount to refund in euros, as the customer says it: "12 euros" is 12, "€45.50" is 45.5'),
    reason: z.string().trim().min(3).max(300).optional().describe("Why, in the customer's words, if they said"),
  }),
  secrets: ['STORE_API_KEY'],
  vars: ['STORE_API_URL'],
  // Money paid back is not taken back: destructive, and a second call pays again.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  // Money, and a message to the team above the threshold: at most FUNCTION_RATE_LIMIT's calls a minute (wrangler.toml).
  rateLimit: { key: 'function' },
  handler: async ({ orderNumber, amountEuros, reason }, context) => {
    const { signal, log } = context;
    // Each client business has its own store.
    const { url: storeUrl, key: storeKey } = storeOf(
      context,
      'Refunds are not set up yet. Tell the customer you cannot refund right now and offer to pass them to a colleague.',
    );
    const number = orderNumber.replace(/^#/, '');
    const response = await fetch(refundUrl(storeUrl, number), {
      method: 'POST',
      headers: { authorization: `Bearer ${storeKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amountCents: Math.round(amountEuros * 100), reason: reason ?? null }),
      redirect: 'manual',
      signal,
    });
    if (response.status === 404) {
      throw new FunctionError(
        404,
        'order_not_found',
        'No order has that number. Ask the customer to check it in their confirmation email; do not guess.',
      );
    }
    if (!response.ok) {
      log.warn('refund_failed', { status: response.status });
      // The store may have applied it: a repeat in this conversation is not run again.
      throw new FunctionError(
        502,
        'refund_uncertain',
        'The refund may or may not have gone through. Do not call this again: tell the customer a colleague will confirm.',
        { mayHaveApplied: response.status >= 500 },
      );
    }
    const { id } = (await response.json()) as { id: string };
    return {
      refunded: true,
      refundId: String(id).slice(0, 64),
      tellCustomer: `${euros(amountEuros)} has been refunded on order ${number}; it reaches the original payment method within 5 working days.`,
    };
  },
  approval: {
    when: ({ amountEuros }) => amountEuros > REFUND_LIMIT_EUROS,
    ask: ({ orderNumber, amountEuros, reason }) =>
      `Refund ${euros(amountEuros)} on order ${orderNumber.replace(/^#/, '')}?${reason ? ` Reason given: ${reason}` : ''}`,
    expiresInMs: 86_400_000,
    waiting:
      'A colleague must approve a refund this large. Tell the customer their refund request is with a colleague and that they will get a message here once it is decided; do not promise the refund.',
    message: (result) => result.tellCustomer,
    denied:
      'A colleague has looked at your refund request and could not approve it. Reply here if you would like a person to explain.',
    expired: 'Sorry, nobody could look at your refund request in time. Please ask again, or ask for a colleague.',
  },
});
