import type { GoldenPrompts } from 'agent-functions-cli/lint';
import type refundPayment from '../../functions/refund_payment.ts';

export default {
  calls: [
    {
      say: 'The mug in order 10452 arrived broken, please refund me the 12 euros.',
      args: { orderNumber: '10452', amountEuros: 12 },
    },
    {
      say: 'I returned the sofa from order #20931, I want my 450 EUR back.',
      args: { orderNumber: '#20931', amountEuros: 450 },
    },
  ],
  not: ['Where is my order 10452?', 'I want to talk to a person.'],
} satisfies GoldenPrompts<typeof refundPayment>;
