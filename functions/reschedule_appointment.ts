import { defineFunction, FunctionError } from 'agent-functions';
import { z } from 'zod';
import { bookingNotFound, referenceSchema, requireSlot, slotTaken, startSchema } from '../lib/booking.ts';
import { calendarOf, normalizeReference } from '../lib/calendar.ts';
import { normalizePhone, phoneSchema } from '../lib/customer.ts';
import { CALENDAR, spokenTime } from '../lib/slots.ts';

export default defineFunction({
  description: `Reschedules a booking of ${CALENDAR.label}: moves it to another time check_availability listed, keeping its reference. Call it when the customer wants a different time and has chosen one from check_availability; it needs the booking reference and the phone number the booking was made with. For a new booking, use book_appointment instead.`,
  parameters: z.object({
    reference: referenceSchema(),
    phone: phoneSchema('The phone number the booking was made with, like "+44 7700 900123"'),
    newStart: startSchema(CALENDAR, 'The new slot\'s "start" exactly as check_availability listed it'),
  }),
  // Replaces a booking's time; asking for the same new time again changes nothing more.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  handler: async ({ reference, phone, newStart }, context) => {
    const now = Date.now();
    const slot = await requireSlot(context, CALENDAR, 'newStart', newStart, now);
    const result = await calendarOf(context.env, CALENDAR, context.account).reschedule(
      normalizeReference(reference),
      normalizePhone(phone) as string,
      slot.start,
      slot.end,
      new Date(now).toISOString(),
    );
    if (result.outcome === 'not_found') throw bookingNotFound();
    if (result.outcome === 'taken') throw await slotTaken(context, CALENDAR, slot, now);
    if (result.outcome === 'past') {
      throw new FunctionError(
        409,
        'booking_in_past',
        'That appointment has already started or taken place, so it cannot be moved. Offer to book a new time instead.',
      );
    }
    const { booking, previousStart } = result;
    const when = spokenTime(Date.parse(booking.start), CALENDAR.timezone);
    const before = spokenTime(Date.parse(previousStart), CALENDAR.timezone);
    return {
      rescheduled: true,
      reference: booking.reference,
      start: slot.local,
      timezone: CALENDAR.timezone,
      summary:
        result.outcome === 'unchanged'
          ? `The booking ${booking.reference} is on ${when} (${CALENDAR.timezone} time), as the customer asked. The reference stays the same.`
          : `The booking ${booking.reference} is moved from ${before} to ${when} (${CALENDAR.timezone} time). The reference stays the same.`,
    };
  },
});
