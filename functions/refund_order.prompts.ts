import type { GoldenPrompts } from 'agent-functions-cli/lint';
import type refundOrder from './refund_order.ts';

export default {
  calls: [
    {
      say: 'The mug in order 10452 arrived broken, please refund me the 12 euros.',
      args: { orderNumber: '10452', amountCents: 1200 },
    },
    {
      say: 'I returned the sofa from order #20931, I want my 450 EUR back.',
      args: { orderNumber: '#20931', amountCents: 45000 },
    },
  ],
  not: ['Where is my order 10452?', 'I want to talk to a person.'],
} satisfies GoldenPrompts<typeof refundOrder>;
