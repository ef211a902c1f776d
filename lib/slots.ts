// A calendar's opening hours and the slots they make, computed in the business's own timezone
// with Intl, so a day with a clock change still has the right slots at the right instants.

/** One bookable calendar: where it lives, when it is open, how long an appointment lasts. */
export interface CalendarConfig {
  /** Names the calendar's Durable Object: one object, one lock, per calendar. */
  id: string;
  /** What is booked, as the agent says it: "a 30-minute consultation". */
  label: string;
  /** IANA timezone of the business; every local date and time below is in it. */
  timezone: string;
  slotMinutes: number;
  /** Weekday (0 = Sunday) to open intervals, local "HH:MM" 24-hour, close exclusive. */
  hours: Partial<Record<number, Array<[open: string, close: string]>>>;
  /** Local dates ("YYYY-MM-DD") closed all day: holidays. */
  closedDates: string[];
  /** A slot must start at least this long after now. */
  minNoticeMinutes: number;
  /** How many days ahead a customer may book. */
  bookAheadDays: number;
  /** Upcoming bookings one phone number may hold, so one chat cannot fill the calendar. */
  maxUpcomingPerCustomer: number;
}

/** The calendar the appointment examples book: edit this to fit your business. */
export const CALENDAR: CalendarConfig = {
  id: 'consultations',
  label: 'a 30-minute consultation',
  timezone: 'Europe/London',
  slotMinutes: 30,
  hours: {
    1: [
      ['09:00', '12:30'],
      ['13:30', '17:30'],
    ],
    2: [
      ['09:00', '12:30'],
      ['13:30', '17:30'],
    ],
    3: [
      ['09:00', '12:30'],
      ['13:30', '17:30'],
    ],
    4: [
      ['09:00', '12:30'],
      ['13:30', '20:00'],
    ],
    5: [
      ['09:00', '12:30'],
      ['13:30', '17:30'],
    ],
    6: [['10:00', '14:00']],
  },
  closedDates: ['2026-12-25', '2026-12-26', '2027-01-01'],
  minNoticeMinutes: 60,
  bookAheadDays: 60,
  maxUpcomingPerCustomer: 3,
};

/** One slot: its instant and how the customer reads it. */
export interface Slot {
  /** UTC instant, as stored. */
  start: string;
  end: string;
  /** Local time with offset, what the model passes back to book it: "2026-03-30T10:00:00+01:00". */
  local: string;
  /** "10:00" */
  time: string;
}

const MINUTE = 60_000;
const DAY_MS = 24 * 60 * MINUTE;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const LOCAL_DATETIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/;

const formatters = new Map<string, Intl.DateTimeFormat>();
const formatterFor = (timeZone: string) => {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
};

/** The wall-clock fields of an instant in `timeZone`. */
export const wallClock = (instant: number, timeZone: string) => {
  const parts = formatterFor(timeZone).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour'), minute: get('minute') };
};

/** Minutes `timeZone` is ahead of UTC at `instant` (60 for London in summer). */
export const offsetMinutes = (instant: number, timeZone: string): number => {
  const w = wallClock(instant, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute);
  return Math.round((asUtc - Math.floor(instant / MINUTE) * MINUTE) / MINUTE);
};

const pad = (n: number) => String(n).padStart(2, '0');

/** "YYYY-MM-DD" of an instant in `timeZone`. */
export const localDate = (instant: number, timeZone: string): string => {
  const w = wallClock(instant, timeZone);
  return `${w.year}-${pad(w.month)}-${pad(w.day)}`;
};

/**
 * The instant a local date and "HH:MM" name in `timeZone`; undefined for a time the clock skips
 * (the hour lost in spring). A time that happens twice (autumn) is its first occurrence.
 * @example localInstant('2026-03-30', '10:00', 'Europe/London') // Date.parse('2026-03-30T09:00:00Z')
 */
export const localInstant = (date: string, time: string, timeZone: string): number | undefined => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [hh, mm] = time.split(':').map(Number) as [number, number];
  const asUtc = Date.UTC(y, m - 1, d, hh, mm);
  // The offset a few hours either side covers both sides of any transition.
  const candidates = [offsetMinutes(asUtc - 12 * 3600_000, timeZone), offsetMinutes(asUtc + 12 * 3600_000, timeZone)]
    .map((offset) => asUtc - offset * MINUTE)
    .filter((instant) => {
      const w = wallClock(instant, timeZone);
      return w.year === y && w.month === m && w.day === d && w.hour === hh && w.minute === mm;
    })
    .sort((a, b) => a - b);
  return candidates[0];
};

/** The weekday (0 = Sunday) of a calendar date. */
export const weekdayOf = (date: string): number => new Date(`${date}T12:00:00Z`).getUTCDay();

/** `date` plus `days` calendar days. */
export const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T12:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** Whether "YYYY-MM-DD" names a real day (not 2026-02-30). */
export const isRealDate = (date: string): boolean => {
  const match = DATE.exec(date);
  return Boolean(match) && new Date(`${date}T12:00:00Z`).toISOString().slice(0, 10) === date;
};

const minutesOf = (time: string) => {
  const [h, m] = time.split(':').map(Number) as [number, number];
  return h * 60 + m;
};

/** A local time with its offset, as ISO 8601: "2026-03-30T10:00:00+01:00". */
export const isoLocal = (instant: number, timeZone: string): string => {
  const w = wallClock(instant, timeZone);
  const offset = offsetMinutes(instant, timeZone);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${w.year}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:00${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
};

/** Every slot of the opening hours of `date`, bookings aside. */
export const slotsOn = (config: CalendarConfig, date: string): Slot[] => {
  if (config.closedDates.includes(date)) return [];
  const slots: Slot[] = [];
  for (const [open, close] of config.hours[weekdayOf(date)] ?? []) {
    for (let m = minutesOf(open); m + config.slotMinutes <= minutesOf(close); m += config.slotMinutes) {
      const time = `${pad(Math.floor(m / 60))}:${pad(m % 60)}`;
      const start = localInstant(date, time, config.timezone);
      if (start === undefined) continue;
      slots.push({
        start: new Date(start).toISOString(),
        end: new Date(start + config.slotMinutes * MINUTE).toISOString(),
        local: isoLocal(start, config.timezone),
        time,
      });
    }
  }
  return slots;
};

/** Whether a slot starting at `start` (UTC ms) may be booked at `now`. */
export const withinBookingWindow = (config: CalendarConfig, start: number, now: number): boolean =>
  start >= now + config.minNoticeMinutes * MINUTE && start <= now + config.bookAheadDays * DAY_MS;

/** The slots of `date` that are open, far enough ahead and not in `taken` (UTC ISO starts). */
export const freeSlotsOn = (config: CalendarConfig, date: string, taken: Set<string>, now: number): Slot[] =>
  slotsOn(config, date).filter((s) => !taken.has(s.start) && withinBookingWindow(config, Date.parse(s.start), now));

/**
 * The instant of a start time the model sent: ISO 8601 with an offset or Z, or a local
 * "YYYY-MM-DDTHH:MM" in the business's timezone. Undefined when it is neither.
 */
export const parseStart = (text: string, timeZone: string): number | undefined => {
  const local = LOCAL_DATETIME.exec(text.trim());
  if (local) {
    const [, date, hh, mm] = local as unknown as [string, string, string, string];
    return isRealDate(date) ? localInstant(date, `${hh}:${mm}`, timeZone) : undefined;
  }
  const instant = Date.parse(text);
  return Number.isNaN(instant) ? undefined : instant;
};

/** "Monday 30 March at 10:00", as the customer should hear it. */
export const spokenTime = (instant: number, timeZone: string): string => {
  const day = new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'long', day: 'numeric', month: 'long' }).format(
    instant,
  );
  const time = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return `${day.replace(',', '')} at ${time.format(instant)}`;
};

/** "Monday 30 March", for a local date. */
export const spokenDate = (date: string): string =>
  new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long' })
    .format(new Date(`${date}T12:00:00Z`))
    .replace(',', '');
