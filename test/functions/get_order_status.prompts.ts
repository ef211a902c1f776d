import type { GoldenPrompts } from 'agent-functions-cli/lint';
import type getOrderStatus from '../../functions/get_order_status.ts';

export default {
  calls: [
    {
      say: 'Where is my order #10452? I ordered with ann@example.com',
      args: { orderNumber: '#10452', email: 'ann@example.com' },
    },
    { say: 'Has order 20931 shipped yet? My email is omar@example.com', args: { orderNumber: '20931' } },
  ],
  not: ['What does the starter plan cost?', 'Are you open today?'],
} satisfies GoldenPrompts<typeof getOrderStatus>;
