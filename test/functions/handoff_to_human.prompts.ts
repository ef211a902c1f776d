import type { GoldenPrompts } from 'agent-functions-cli/lint';
import type handoffToHuman from '../../functions/handoff_to_human.ts';

export default {
  calls: [
    { say: 'I want to talk to a real person, please.', args: { reason: 'customer_asked' } },
    {
      say: 'This is the third time my order arrived broken, I want to make a complaint!',
      args: { reason: 'complaint' },
    },
  ],
  not: ['Where is my order 10452?', 'Can I book a consultation for Monday?'],
} satisfies GoldenPrompts<typeof handoffToHuman>;
