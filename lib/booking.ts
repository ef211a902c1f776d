// What the appointment functions share: free slots of a day, turning the start time the model sent
// into a bookable slot, and refusals that tell the model which times it can offer instead.

import type { CallAccount, Env } from 'agent-functions';
import { FunctionError } from 'agent-functions';
import { z } from 'zod';
import { calendarOf } from './calendar.ts';
import {
  addDays,
  type CalendarConfig,
  freeSlotsOn,
  localDate,
  parseStart,
  type Slot,
  slotsOn,
  spokenDate,
  spokenTime,
  withinBookingWindow,
} from './slots.ts';

const DAY_MS = 24 * 3600_000;

/** Whose calendar: the Worker's bindings and the call's account (a handler's context is one). */
export interface CalendarPlace {
  env: Env;
  account: Pick<CallAccount, 'name'>;
}

/** Free slots of each local date from `first` for `days` days, with one storage call. */
export const freeSlots = async (
  at: CalendarPlace,
  config: CalendarConfig,
  first: string,
  days: number,
  now: number,
): Promise<Array<{ date: string; slots: Slot[] }>> => {
  // UTC bounds a day wider than the local dates, whatever the timezone.
  const from = new Date(Date.parse(`${first}T00:00:00Z`) - DAY_MS).toISOString();
  const to = new Date(Date.parse(`${addDays(first, days)}T00:00:00Z`) + DAY_MS).toISOString();
  const taken = new Set(await calendarOf(at.env, config, at.account).taken(from, to));
  return Array.from({ length: days }, (_, i) => {
    const date = addDays(first, i);
    return { date, slots: freeSlotsOn(config, date, taken, now) };
  });
};

/** "Monday 30 March: 09:00, 09:30" or, when the day is full, the next day with room. */
export const alternatives = async (
  at: CalendarPlace,
  config: CalendarConfig,
  date: string,
  now: number,
): Promise<string> => {
  const week = await freeSlots(at, config, date, 7, now);
  const day = week.find((d) => d.slots.length > 0);
  if (!day) return 'There are no free times in the next 7 days from that day; offer to check later dates.';
  const times = day.slots.map((s) => s.time);
  return `Free times on ${spokenDate(day.date)}${day.date === date ? '' : ' (the next day with room)'}: ${times.slice(0, 8).join(', ')}${times.length > 8 ? `, and ${times.length - 8} more` : ''}.`;
};

/**
 * A start-time argument: the `local` value of a slot from check_availability, or any ISO 8601
 * time with an offset, or a local "YYYY-MM-DDTHH:MM" in the calendar's timezone.
 */
/** The booking reference argument of cancel and reschedule. */
export const referenceSchema = () =>
  z
    .string()
    .trim()
    .min(4)
    .max(20)
    .describe('The booking reference the customer was given, like "K7M2-Q9TX"')
    .meta({ examples: ['K7M2-Q9TX'] });

export const startSchema = (config: CalendarConfig, description: string) =>
  z
    .string()
    .max(40)
    .refine((text) => parseStart(text, config.timezone) !== undefined, {
      message: 'not a date and time like "2026-03-30T10:00:00+01:00" or "2026-03-30T10:00"',
    })
    .describe(description)
    .meta({ examples: ['2026-03-30T10:00:00+01:00'] });

/** The model's start time as a bookable slot, or a 422 that says what can be booked instead. */
export const requireSlot = async (
  at: CalendarPlace,
  config: CalendarConfig,
  argument: string,
  text: string,
  now: number,
): Promise<Slot> => {
  const { timezone } = config;
  const instant = parseStart(text, timezone) as number;
  const date = localDate(instant, timezone);
  const today = localDate(now, timezone);
  // biome-ignore lint/complexity/useMathMinMax: these are ISO date strings, not numbers
  const refuse = async (code: string, why: string, from = date < today ? today : date): Promise<never> => {
    const offer = await alternatives(at, config, from, now);
    throw new FunctionError(
      422,
      code,
      `${why} ${offer} Ask the customer which time suits them, then call again with that "${argument}".`,
      { details: [{ argument, problem: why, expected: 'a free slot start from check_availability' }] },
    );
  };
  const slot = slotsOn(config, date).find((s) => Date.parse(s.start) === instant);
  if (!slot) {
    return refuse(
      'not_a_slot',
      `${spokenTime(instant, timezone)} (${timezone} time) is not a bookable start: appointments start on the ${config.slotMinutes}-minute marks within opening hours.`,
    );
  }
  if (!withinBookingWindow(config, instant, now)) {
    return refuse(
      'outside_booking_window',
      instant < now + config.minNoticeMinutes * 60_000
        ? `${spokenTime(instant, timezone)} is in the past or less than ${config.minNoticeMinutes} minutes from now (today is ${spokenDate(today)} in ${timezone}).`
        : `${spokenTime(instant, timezone)} is more than ${config.bookAheadDays} days ahead; bookings open ${config.bookAheadDays} days in advance.`,
      instant < now || instant > now + config.bookAheadDays * DAY_MS ? today : date,
    );
  }
  return slot;
};

/** The 409 when someone else holds the slot, offering the times still free. */
export const slotTaken = async (
  at: CalendarPlace,
  config: CalendarConfig,
  slot: Slot,
  now: number,
): Promise<FunctionError> =>
  new FunctionError(
    409,
    'slot_taken',
    `${spokenTime(Date.parse(slot.start), config.timezone)} has just been booked by someone else. ${await alternatives(
      at,
      config,
      localDate(Date.parse(slot.start), config.timezone),
      now,
    )} Offer the customer one of these and call again with the time they choose.`,
  );

/** The neutral 404 for a reference and phone number that do not match an active booking. */
export const bookingNotFound = (): FunctionError =>
  new FunctionError(
    404,
    'booking_not_found',
    'No active booking matches that reference and phone number. Ask the customer to check the reference (it looks like "K7M2-Q9TX") and the phone number they booked with; do not guess.',
  );
