import { defineFunction, FunctionError } from 'agent-functions';
import { z } from 'zod';
import { requireSlot, slotTaken, startSchema } from '../lib/booking.ts';
import { calendarOf } from '../lib/calendar.ts';
import { emailSchema, normalizeEmail, normalizePhone, phoneSchema } from '../lib/customer.ts';
import { CALENDAR, spokenTime } from '../lib/slots.ts';

export default defineFunction({
  description: `Books ${CALENDAR.label} for the customer at a time check_availability listed. Call it once the customer has chosen a time and given their name and phone number. To move a booking, use reschedule_appointment. Called again with the same time and phone, it returns the same booking, never a second one. Read the booking reference to the customer: cancel_appointment and reschedule_appointment need it.`,
  parameters: z.object({
    start: startSchema(CALENDAR, 'The chosen slot\'s "start" exactly as check_availability listed it'),
    name: z.string().trim().min(1).max(100).describe("The customer's full name"),
    phone: phoneSchema('The customer\'s phone number with the country code, like "+44 7700 900123"'),
    email: emailSchema('For the confirmation, if they gave one').optional(),
    notes: z.string().max(500).optional().describe('What the customer wants to discuss, in one or two sentences'),
  }),
  // Adds a booking in this Worker's calendar; the same time and phone return the same booking.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  // Within a conversation, the same time for the same phone is one booking whatever the name or notes say.
  dedupe: { key: ({ start, phone }) => [start, normalizePhone(phone)] },
  handler: async ({ start, name, phone, email, notes }, context) => {
    const now = Date.now();
    const slot = await requireSlot(context, CALENDAR, 'start', start, now);
    const result = await calendarOf(context.env, CALENDAR, context.account).book({
      start: slot.start,
      end: slot.end,
      name,
      phone: normalizePhone(phone) as string,
      email: email === undefined ? undefined : normalizeEmail(email),
      notes,
      now: new Date(now).toISOString(),
      maxUpcomingPerCustomer: CALENDAR.maxUpcomingPerCustomer,
    });
    if (result.outcome === 'taken') throw await slotTaken(context, CALENDAR, slot, now);
    if (result.outcome === 'limit') {
      throw new FunctionError(
        409,
        'booking_limit',
        `This phone number already has ${result.upcoming} upcoming bookings, the most one customer can hold. Offer to cancel or reschedule one of them instead (the customer needs its reference).`,
      );
    }
    const { booking } = result;
    const when = spokenTime(Date.parse(booking.start), CALENDAR.timezone);
    return {
      booked: true,
      reference: booking.reference,
      start: slot.local,
      timezone: CALENDAR.timezone,
      name: booking.name,
      summary: `Booked ${CALENDAR.label} on ${when} (${CALENDAR.timezone} time) for ${booking.name}. The booking reference is ${booking.reference}: tell the customer, they need it to cancel or reschedule.`,
    };
  },
});
