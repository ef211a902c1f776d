import { defineFunction } from 'agent-functions';
import { z } from 'zod';

/** The business's timezone and weekly hours (0 = Sunday), local time, 24-hour "HH:MM": the defaults
 * of every account; a client business's own are its settings `timezone` and `openingHours`. */
const TIMEZONE = 'Europe/London';
const HOURS: Record<string, [open: string, close: string] | undefined> = {
  1: ['09:00', '17:30'],
  2: ['09:00', '17:30'],
  3: ['09:00', '17:30'],
  4: ['09:00', '20:00'],
  5: ['09:00', '17:30'],
  6: ['10:00', '14:00'],
};
const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Weekday and "HH:MM" of an instant in `timezone`. */
const localTime = (instant: Date, timezone: string) => {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: timezone,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(instant);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const day = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(get('weekday'));
  return { day, time: `${get('hour')}:${get('minute')}` };
};

export default defineFunction({
  description:
    'Says whether the shop is open at a given moment (now by default) and when it next opens. Call it when the customer asks about opening hours or whether they can visit or call. Not for appointment times: use check_availability.',
  parameters: z.object({
    at: z.iso
      .datetime({ offset: true })
      .optional()
      .describe('The moment to check, in ISO 8601 with a timezone offset; leave out for now'),
  }),
  // Computes from the hours in this file or the account's settings.
  annotations: { readOnlyHint: true, openWorldHint: false },
  handler: ({ at }, { account }) => {
    const timezone = account.settings.timezone ?? TIMEZONE;
    const hoursOf = (day: number) => (account.settings.openingHours ?? HOURS)[day];
    const describeHours = (day: number) => {
      const hours = hoursOf(day);
      return hours ? `${hours[0]}-${hours[1]}` : 'closed';
    };
    const instant = at ? new Date(at) : new Date();
    const { day, time } = localTime(instant, timezone);
    const today = hoursOf(day);
    const open = today !== undefined && time >= today[0] && time < today[1];
    let next = '';
    if (!open) {
      for (let offset = 0; offset <= 7; offset++) {
        const candidate = (day + offset) % 7;
        const hours = hoursOf(candidate);
        if (!hours || (offset === 0 && time >= hours[0])) continue;
        next = `${offset === 0 ? 'today' : offset === 1 ? 'tomorrow' : DAY_NAMES[candidate]} at ${hours[0]}`;
        break;
      }
    }
    return {
      open,
      timezone,
      localTime: `${DAY_NAMES[day]} ${time}`,
      todaysHours: describeHours(day),
      summary: open
        ? `Open now, until ${today?.[1]} (${timezone} time).`
        : `Closed now. Opens ${next} (${timezone} time).`,
      weeklyHours: Object.fromEntries(DAY_NAMES.map((name, i) => [name, describeHours(i)])),
    };
  },
});
