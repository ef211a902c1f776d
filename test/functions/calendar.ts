// Dates and bookings for the appointment tests: real future days of the example calendar, so the
// tests run the functions as they are, against the clock, on any day of the year. Bookings and free
// times are read from the calendar itself, never through another example function.
import { env } from 'cloudflare:workers';
import type { Env } from 'agent-functions';
import { freeSlots } from '../../lib/booking.ts';
import { calendarOf } from '../../lib/calendar.ts';
import { normalizePhone } from '../../lib/customer.ts';
import { CALENDAR, isoLocal, localDate, localInstant, slotsOn, weekdayOf } from '../../lib/slots.ts';
import { FIRST_ACCOUNT } from '../helpers.ts';

const DAY_MS = 24 * 3600_000;

/**
 * The first `weekday` (1 = Monday .. 4 = Thursday, open all day in the example) at least three days
 * from today, plus `weeks` weeks; within the booking window for weeks 0 to 6.
 */
export const futureDay = (weekday: number, weeks = 0): string => {
  let instant = Date.now() + 3 * DAY_MS;
  while (weekdayOf(localDate(instant, CALENDAR.timezone)) !== weekday) instant += DAY_MS;
  return localDate(instant + weeks * 7 * DAY_MS, CALENDAR.timezone);
};

/** The `start` value check_availability lists for `date` at local `time`. */
export const startAt = (date: string, time: string): string =>
  isoLocal(localInstant(date, time, CALENDAR.timezone) as number, CALENDAR.timezone);

// The account of calls through the first account's urls, whose calendar these helpers read.
export { FIRST_ACCOUNT };

/** A booking's arguments for a customer; phone numbers differ by `n`. */
export const customer = (n: number) => ({ name: `Customer ${n}`, phone: `+44 7700 900${String(n).padStart(3, '0')}` });

/**
 * Books `time` on `date` for customer `n` (as contact `contactId` in a conversation, when given)
 * straight in the example calendar and returns the booking reference. Not through
 * book_appointment: each example's test stands alone when others are removed.
 */
export const bookAt = async (date: string, time: string, n: number, contactId?: string): Promise<string> => {
  const slot = slotsOn(CALENDAR, date).find((candidate) => candidate.time === time);
  if (!slot) throw new Error(`bookAt: ${date} ${time} is not a slot of the example calendar`);
  const { name, phone } = customer(n);
  const result = await calendarOf(env as Env, CALENDAR, FIRST_ACCOUNT).book({
    start: slot.start,
    end: slot.end,
    name,
    phone: normalizePhone(phone) as string,
    now: new Date().toISOString(),
    maxUpcomingPerCustomer: CALENDAR.maxUpcomingPerCustomer,
    ...(contactId ? { contactId } : {}),
  });
  if (result.outcome !== 'booked') throw new Error(`bookAt(${date}, ${time}): ${result.outcome}`);
  return result.booking.reference;
};

/** Cancels customer `n`'s booking `reference` straight in the example calendar. */
export const cancelAt = async (reference: string, n: number): Promise<void> => {
  const result = await calendarOf(env as Env, CALENDAR, FIRST_ACCOUNT).cancel(
    reference,
    normalizePhone(customer(n).phone) as string,
    undefined,
    new Date().toISOString(),
  );
  if (result.outcome !== 'cancelled') throw new Error(`cancelAt(${reference}): ${result.outcome}`);
};

/** The free times of `date`, read from the example calendar as check_availability reads them. */
export const freeTimes = async (date: string): Promise<string[] | undefined> =>
  (await freeSlots({ env: env as Env, account: FIRST_ACCOUNT }, CALENDAR, date, 1, Date.now()))[0]?.slots.map(
    (s) => s.time,
  );
