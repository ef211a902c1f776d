// The framework's own test function, served the way worker.ts serves functions/: the core and
// security suites call it, so they pass whatever functions/ holds (README "Removing the examples").
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { z } from 'zod';
import { defineFunction } from '../../src/define.ts';
import type { Env } from '../../src/env.ts';
import { platformFromEnv } from '../../src/platform/fromEnv.ts';
import { createWorker } from '../../src/worker.ts';
import { through } from './helpers.ts';

const PRICES = { starter: 900, growth: 2900, scale: 7900 } as const;

/** A pure function with enums, bounds and defaults, the shape most functions have. */
export const quote_price = defineFunction({
  description:
    'Quotes the price of a subscription plan for a number of seats. Call it when the customer asks what a plan costs, or compares plans.',
  parameters: z.object({
    plan: z.enum(['starter', 'growth', 'scale']).describe('The plan the customer asked about'),
    seats: z.int().min(1).max(500).describe('How many users will need access'),
    billing: z.enum(['monthly', 'yearly']).default('monthly').describe('How often the customer wants to pay'),
    currency: z.enum(['USD', 'EUR', 'GBP']).default('USD').describe("The customer's currency"),
  }),
  handler: ({ plan, seats, billing, currency }) => ({
    plan,
    seats,
    billing,
    currency,
    totalCents: PRICES[plan] * seats,
  }),
});

/** A function without arguments, called with GET as readily as with POST. */
export const tell_time = defineFunction({
  description: 'Tells the current time in UTC. Call it when the customer asks what time it is.',
  parameters: z.object({}),
  handler: () => ({ now: new Date().toISOString() }),
});

const worker = createWorker({ functions: { quote_price, tell_time }, platform: platformFromEnv });

/** The fixture Worker with the test env, as the real entry has it. */
export const fixture = {
  fetch: async (request: Request): Promise<Response> => {
    const ctx = createExecutionContext();
    const response = await worker.fetch(request, env as Env, ctx);
    await waitOnExecutionContext(ctx);
    return response;
  },
};

export const { send, call } = through(fixture);
