// The 5-field schema of the benchmarked function, in zod, for the project and the bare-zod Workers.
import { z } from 'zod';
import { BILLING, NOTES_MAX, PLANS, SEATS } from './quote.ts';

/**
 * A fresh copy of the quote schema (each generated function gets its own, as real files would).
 * @example quoteSchema().safeParse({ plan: 'growth', seats: 3, email: 'a@example.com' }).success // true
 */
export const quoteSchema = () =>
  z.object({
    plan: z.enum(PLANS).describe('The plan the customer asked about'),
    seats: z.int().min(SEATS.min).max(SEATS.max).describe('How many users will need access'),
    billing: z.enum(BILLING).default('monthly').describe('How often the customer wants to pay'),
    email: z.email().describe("The customer's email address, for the written quote"),
    notes: z.string().max(NOTES_MAX).optional().describe('Anything else the customer asked for'),
  });
