import type { GoldenPrompts } from 'agent-functions-cli/lint';
import type checkOpeningHours from '../../functions/check_opening_hours.ts';

export default {
  calls: [
    { say: 'Are you open right now?' },
    { say: 'What are your opening hours on Saturday?' },
    { say: 'Can I visit the shop at 2026-04-04T17:30:00+01:00?', args: { at: '2026-04-04T17:30:00+01:00' } },
  ],
  not: ['When is there a free appointment for a consultation?', 'Where is my order 10452?'],
} satisfies GoldenPrompts<typeof checkOpeningHours>;
