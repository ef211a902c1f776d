import { expect } from 'vitest';
// Dates for the appointment tests: real future days of the example calendar, so the tests run
// the functions as they are, against the clock, on any day of the year.
import { CALENDAR, isoLocal, localDate, localInstant, weekdayOf } from '../../../lib/slots.ts';
import { call } from '../helpers.ts';

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

/** A booking's arguments for a customer; phone numbers differ by `n`. */
export const customer = (n: number) => ({ name: `Customer ${n}`, phone: `+44 7700 900${String(n).padStart(3, '0')}` });

/** Books `time` on `date` for customer `n` and returns the booking reference. */
export const bookAt = async (date: string, time: string, n: number): Promise<string> => {
  const response = await call('book_appointment', { start: startAt(date, time), ...customer(n) });
  expect(response.status).toBe(200);
  return ((await response.json()) as { reference: string }).reference;
};

/** The free times check_availability lists for `date`. */
export const freeTimes = async (date: string): Promise<string[] | undefined> =>
  (
    (await (await call('check_availability', { date })).json()) as {
      days: Array<{ slots: Array<{ time: string }> }>;
    }
  ).days[0]?.slots.map((s) => s.time);
