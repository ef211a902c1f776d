import type { GoldenPrompts } from 'agent-functions-cli/lint';
import type bookAppointment from '../../functions/book_appointment.ts';

export default {
  calls: [
    {
      say: 'Please book me in for the 10am slot on Monday. I am Ann Lee, +44 7700 900123.',
      context: 'check_availability listed Monday 30 March at 10:00 with start "2026-03-30T10:00:00+01:00".',
      args: { start: '2026-03-30T10:00:00+01:00', name: 'Ann Lee', phone: '+44 7700 900123' },
    },
    {
      say: 'Yes, book that time for me: Omar Haddad, phone +44 7700 900456, email omar@example.com',
      context: 'The customer chose the slot with start "2026-04-02T14:30:00+01:00".',
      args: { name: 'Omar Haddad', email: 'omar@example.com', start: '2026-04-02T14:30:00+01:00' },
    },
  ],
  not: [
    'Can I move my appointment K7M2-Q9TX to Friday?',
    'When can I come in next week?',
    'Please cancel my booking K7M2-Q9TX.',
  ],
} satisfies GoldenPrompts<typeof bookAppointment>;
