import type { GoldenPrompts } from 'agent-functions-cli/lint';
import type captureLead from '../../functions/capture_lead.ts';

export default {
  calls: [
    {
      say: 'Hi, I am Priya Shah (+44 7700 900789). We need a new website for our bakery and could start this month, budget about 2000 a month.',
      args: { name: 'Priya Shah', phone: '+44 7700 900789', monthlyBudget: 2000, timeline: 'this_month' },
    },
    {
      say: 'I am interested in your services for my team, we need help with our online marketing. My name is Tom Berg, +46 70 123 45 67.',
      args: { name: 'Tom Berg' },
    },
  ],
  not: ['How much is the growth plan for 10 seats?', 'Where is my order 10452?'],
} satisfies GoldenPrompts<typeof captureLead>;
