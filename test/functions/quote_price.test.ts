import { call, errorOf } from 'agent-functions/testing';
import { describeFunction } from 'agent-functions/worker';
import { describe, expect, it } from 'vitest';
import quotePrice from '../../functions/quote_price.ts';

const quote = async (args: Record<string, unknown>) => {
  const response = await call('quote_price', args);
  expect(response.status).toBe(200);
  return (await response.json()) as { totalCents: number; billing: string; currency: string; summary: string };
};

describe('quote_price', () => {
  it('quotes a monthly price per seat in dollars by default', async () => {
    const body = await quote({ plan: 'growth', seats: 3 });
    expect(body).toMatchObject({ billing: 'monthly', currency: 'USD', totalCents: 8700 });
    expect(body.summary).toBe('growth for 3 seats: $87.00 per month.');
  });

  it('takes 20% off a yearly price, in the currency asked for', async () => {
    const body = await quote({ plan: 'starter', seats: 1, billing: 'yearly', currency: 'GBP' });
    expect(body.totalCents).toBe(7680);
    expect(body.summary).toBe('starter for 1 seat: £76.80 per year (20% off).');
  });

  it('accepts a seat count the model sent as a string', async () => {
    expect((await quote({ plan: 'scale', seats: '2', currency: 'EUR' })).totalCents).toBe(15000);
  });

  it.each([
    ['plan', { seats: 1 }],
    ['plan', { plan: 'enterprise', seats: 1 }],
    ['seats', { plan: 'growth' }],
    ['seats', { plan: 'growth', seats: 0 }],
    ['seats', { plan: 'growth', seats: 501 }],
    ['seats', { plan: 'growth', seats: 2.5 }],
    ['billing', { plan: 'growth', seats: 1, billing: 'weekly' }],
    ['currency', { plan: 'growth', seats: 1, currency: 'JPY' }],
  ])('answers 422 naming "%s" when it is wrong or missing', async (argument, args) => {
    const response = await call('quote_price', args);
    expect(response.status).toBe(422);
    const error = await errorOf(response);
    expect(error.code).toBe('invalid_arguments');
    expect(error.details).toEqual([expect.objectContaining({ argument })]);
    expect(error.message).toContain(`"${argument}"`);
  });
});

describe('the enriched description of quote_price', () => {
  it('carries every enum, bound, default and field description', () => {
    const { description } = describeFunction('quote_price', quotePrice);
    for (const constraint of [
      '- plan (required, string): One of "starter", "growth", "scale". The plan the customer asked about.',
      '- seats (required, number): Whole number, from 1 to 500. How many users will need access.',
      '- billing (optional, string, default "monthly"): One of "monthly", "yearly".',
      '- currency (optional, string, default "USD"): One of "USD", "EUR", "GBP".',
    ]) {
      expect(description).toContain(constraint);
    }
  });
});
