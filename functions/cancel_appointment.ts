import { defineFunction, FunctionError } from 'agent-functions';
import { z } from 'zod';
import { bookingNotFound, referenceSchema } from '../lib/booking.ts';
import { calendarOf, normalizeReference } from '../lib/calendar.ts';
import { normalizePhone, phoneSchema } from '../lib/customer.ts';
import { CALENDAR, spokenTime } from '../lib/slots.ts';

export default defineFunction({
  description: `Cancels a booking of ${CALENDAR.label}, found by its booking reference and the phone number it was booked with. Call it when the customer asks to cancel and has confirmed which booking. To move a booking instead, use reschedule_appointment.`,
  parameters: z.object({
    reference: referenceSchema(),
    phone: phoneSchema('The phone number the booking was made with, like "+44 7700 900123"'),
  }),
  // Removes a booking; cancelling it again changes nothing more.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  handler: async ({ reference, phone }, context) => {
    const now = new Date().toISOString();
    const result = await calendarOf(context.env, CALENDAR, context.account).cancel(
      normalizeReference(reference),
      normalizePhone(phone) as string,
      now,
    );
    if (result.outcome === 'not_found' || result.outcome === 'taken') throw bookingNotFound();
    if (result.outcome === 'past') {
      throw new FunctionError(
        409,
        'booking_in_past',
        'That appointment has already started or taken place, so it cannot be cancelled. Ask the customer whether they want to book a new time.',
      );
    }
    const when = spokenTime(Date.parse(result.booking.start), CALENDAR.timezone);
    return {
      cancelled: true,
      reference: result.booking.reference,
      summary: `The booking ${result.booking.reference} on ${when} (${CALENDAR.timezone} time) is cancelled${result.outcome === 'already_cancelled' ? ' (it already was)' : ''}. Offer to book a new time if the customer wants one.`,
    };
  },
});
