import { defineFunction, FunctionError } from 'agent-functions';
import { z } from 'zod';
import { freeSlots } from '../lib/booking.ts';
import { addDays, CALENDAR, isRealDate, localDate, spokenDate } from '../lib/slots.ts';

const MAX_DAYS = 14;

export default defineFunction({
  description: `Lists the availability: the free appointment times for ${CALENDAR.label}, for one day or several days in a row. Call it when the customer wants to book, asks when they can come, or a time they wanted is taken. Times are in the business's timezone (${CALENDAR.timezone}); book one with book_appointment, passing the slot's "start". Not for the shop's opening hours: use check_opening_hours.`,
  parameters: z.object({
    date: z.iso
      .date()
      .optional()
      .describe(`The first day to list, as YYYY-MM-DD in ${CALENDAR.timezone}; leave out for today`),
    days: z.int().min(1).max(MAX_DAYS).default(1).describe('How many days to list, starting with date'),
  }),
  // Reads the calendar only.
  annotations: { readOnlyHint: true, openWorldHint: false },
  handler: async ({ date, days }, context) => {
    const now = Date.now();
    const { timezone } = CALENDAR;
    const today = localDate(now, timezone);
    const first = date ?? today;
    const last = localDate(now + CALENDAR.bookAheadDays * 24 * 3600_000, timezone);
    if (!isRealDate(first) || first < today || first > last) {
      throw new FunctionError(
        422,
        first < today ? 'date_in_past' : 'outside_booking_window',
        `${first} cannot be booked: today is ${spokenDate(today)} (${today}) in ${timezone}, and bookings are open up to ${last}. Ask the customer which day they mean, with the year if unsure, then call again.`,
        { details: [{ argument: 'date', problem: 'outside the booking window', expected: `${today} to ${last}` }] },
      );
    }
    // A range running past the window is cut short rather than refused.
    const count = Math.min(days, Math.round((Date.parse(last) - Date.parse(first)) / 86_400_000) + 1);
    const listed = await freeSlots(context, CALENDAR, first, count, now);
    const lines = listed.map(
      ({ date, slots }) =>
        `${spokenDate(date)}: ${slots.length ? slots.map((s) => s.time).join(', ') : 'nothing free'}`,
    );
    return {
      timezone,
      slotMinutes: CALENDAR.slotMinutes,
      days: listed.map(({ date, slots }) => ({
        date,
        day: spokenDate(date),
        slots: slots.map((s) => ({ start: s.local, time: s.time })),
      })),
      summary: `Free times for ${CALENDAR.label} (${timezone} time). ${lines.join('. ')}.${count < days ? ` Bookings open only up to ${spokenDate(addDays(first, count - 1))}.` : ''}`,
    };
  },
});
