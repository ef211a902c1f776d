import { defineFunction } from 'agent-functions';
import { z } from 'zod';

// Monthly price per seat, in each currency's smallest unit (cents).
const PRICES = {
  starter: { USD: 900, EUR: 900, GBP: 800 },
  growth: { USD: 2900, EUR: 2700, GBP: 2400 },
  scale: { USD: 7900, EUR: 7500, GBP: 6600 },
} as const;

const YEARLY_DISCOUNT = 0.2;

export default defineFunction({
  description:
    'Quotes the price of a subscription plan for a number of seats. Call it when the customer asks what a plan costs, or compares plans. It only quotes: to save an interested customer as a lead, use capture_lead.',
  parameters: z.object({
    plan: z.enum(['starter', 'growth', 'scale']).describe('The plan the customer asked about'),
    seats: z.int().min(1).max(500).describe('How many users will need access'),
    billing: z.enum(['monthly', 'yearly']).default('monthly').describe('How often the customer wants to pay'),
    currency: z.enum(['USD', 'EUR', 'GBP']).default('USD').describe("The customer's currency"),
  }),
  // Computes from the price list in this file.
  annotations: { readOnlyHint: true, openWorldHint: false },
  handler: ({ plan, seats, billing, currency }) => {
    const monthly = PRICES[plan][currency] * seats;
    const cents = billing === 'yearly' ? Math.round(monthly * 12 * (1 - YEARLY_DISCOUNT)) : monthly;
    const total = new Intl.NumberFormat('en', { style: 'currency', currency }).format(cents / 100);
    return {
      plan,
      seats,
      billing,
      currency,
      totalCents: cents,
      summary: `${plan} for ${seats} seat${seats === 1 ? '' : 's'}: ${total} per ${billing === 'yearly' ? 'year (20% off)' : 'month'}.`,
    };
  },
});
