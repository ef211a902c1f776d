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
  not: ['Can I move my booking K7M2-Q9TX to another day?', 'I would like to book a consultation on Monday.'],
} satisfies GoldenPrompts<typeof cancelAppointment>;
