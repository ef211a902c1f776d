import type { GoldenPrompts } from 'agent-functions-cli/lint';
import type cancelAppointment from '../../functions/cancel_appointment.ts';

export default {
  calls: [
    {
      say: 'Please cancel my appointment, the reference is K7M2-Q9TX and my phone is +44 7700 900123.',
      args: { reference: 'K7M2-Q9TX', phone: '+44 7700 900123' },
    },
    {
      say: "I can't make it any more, cancel booking Q4TR-88ZW please (+44 7700 900456)",
      args: { reference: 'Q4TR-88ZW' },
    },
  ],
  // Nothing here names another example's case (a move): each example's prompts pass without the others.
  not: ['I would like to book a consultation on Monday.', 'What does the growth plan cost for 3 seats?'],
} satisfies GoldenPrompts<typeof cancelAppointment>;
