import type { GoldenPrompts } from 'agent-functions-cli/lint';
import type rescheduleAppointment from '../../functions/reschedule_appointment.ts';

export default {
  calls: [
    {
      say: 'Can you move my booking K7M2-Q9TX to the Thursday 14:30 slot? My phone is +44 7700 900123.',
      context: 'check_availability listed Thursday 2 April at 14:30 with start "2026-04-02T14:30:00+01:00".',
      args: { reference: 'K7M2-Q9TX', phone: '+44 7700 900123', newStart: '2026-04-02T14:30:00+01:00' },
    },
  ],
  // Nothing here names another example's case (a cancel): each example's prompts pass without the others.
  not: ['I would like to book a consultation.', 'What does the growth plan cost for 3 seats?'],
} satisfies GoldenPrompts<typeof rescheduleAppointment>;
