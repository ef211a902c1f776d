import type { GoldenPrompts } from 'agent-functions-cli/lint';
import type checkAvailability from '../../functions/check_availability.ts';

export default {
  calls: [
    { say: 'When can I come in for a consultation?' },
    { say: 'Do you have any free times on 2026-04-02?', args: { date: '2026-04-02' } },
    { say: 'What times are free over the next three days?', args: { days: 3 } },
  ],
  not: ['Is the shop open on Sunday?', 'Book me in for 10am on Monday, I am Ann Lee, +44 7700 900123.'],
} satisfies GoldenPrompts<typeof checkAvailability>;
