import type { GoldenPrompts } from 'agent-functions-cli/lint';
import type quotePrice from '../../functions/quote_price.ts';

export default {
  calls: [
    { say: 'How much is the growth plan for 12 users?', args: { plan: 'growth', seats: 12 } },
    {
      say: 'What would the scale plan cost us yearly for 40 seats, in EUR?',
      args: { plan: 'scale', seats: 40, billing: 'yearly', currency: 'EUR' },
    },
  ],
  not: ['Where is my order 10452?', 'I want to talk to a person.'],
} satisfies GoldenPrompts<typeof quotePrice>;
