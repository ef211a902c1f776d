import { describe, expect, it } from 'vitest';
import checkOpeningHours from '../../../functions/check_opening_hours.ts';
import quotePrice from '../../../functions/quote_price.ts';
import { describeFunction } from '../../../src/describe.ts';

describe('the enriched description of each example', () => {
  it('quote_price carries every enum, bound, default and field description', () => {
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

  it('check_opening_hours says the moment is optional and in ISO 8601', () => {
    const { description, parameters } = describeFunction('check_opening_hours', checkOpeningHours);
    expect(parameters).toEqual({ at: 'string' });
    expect(description).toContain('- at (optional, string): A date and time in ISO 8601');
    expect(description).toContain('leave out for now');
  });
});
