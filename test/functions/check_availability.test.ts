import { reset } from 'cloudflare:test';
import { call, errorOf } from 'agent-functions/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { CALENDAR, localDate } from '../../lib/slots.ts';
import { bookAt, futureDay, startAt } from './calendar.ts';

interface Availability {
  timezone: string;
  slotMinutes: number;
  days: Array<{ date: string; day: string; slots: Array<{ start: string; time: string }> }>;
  summary: string;
}

const availability = async (args: Record<string, unknown>) => {
  const response = await call('check_availability', args);
  expect(response.status).toBe(200);
  return (await response.json()) as Availability;
};

describe('check_availability', () => {
  beforeEach(() => reset());

  it("lists a day's free slots in the business timezone, each with a start to book it by", async () => {
    const date = futureDay(1);
    const body = await availability({ date });
    expect(body.timezone).toBe(CALENDAR.timezone);
    expect(body.days).toHaveLength(1);
    const [day] = body.days;
    expect(day?.date).toBe(date);
    expect(day?.day).toMatch(/^Monday \d+ \w+$/);
    const times = day?.slots.map((s) => s.time);
    // Monday: 09:00-12:30 and 13:30-17:30 in 30-minute slots.
    expect(times).toHaveLength(15);
    expect(times?.slice(0, 2)).toEqual(['09:00', '09:30']);
    expect(times).not.toContain('12:30');
    expect(times).toContain('13:30');
    expect(times?.at(-1)).toBe('17:00');
    expect(day?.slots[0]?.start).toBe(startAt(date, '09:00'));
    expect(body.summary).toContain('09:00, 09:30');
  });

  it('lists a range of days, with closed days as nothing free', async () => {
    const monday = futureDay(1);
    const body = await availability({ date: monday, days: 7 });
    expect(body.days.map((d) => d.date)).toHaveLength(7);
    const sunday = body.days[6];
    expect(sunday?.day).toMatch(/^Sunday/);
    expect(sunday?.slots).toEqual([]);
    expect(body.days[5]?.slots.map((s) => s.time)).toEqual([
      '10:00',
      '10:30',
      '11:00',
      '11:30',
      '12:00',
      '12:30',
      '13:00',
      '13:30',
    ]);
    expect(body.summary).toMatch(/Sunday \d+ \w+: nothing free/);
  });

  it('leaves out booked slots', async () => {
    const date = futureDay(2);
    await bookAt(date, '09:30', 1);
    const times = (await availability({ date })).days[0]?.slots.map((s) => s.time);
    expect(times).toContain('09:00');
    expect(times).not.toContain('09:30');
  });

  it('lists today when no date is given, without times already past', async () => {
    const body = await availability({});
    expect(body.days[0]?.date).toBe(localDate(Date.now(), CALENDAR.timezone));
    for (const slot of body.days[0]?.slots ?? []) {
      expect(Date.parse(slot.start)).toBeGreaterThan(Date.now() + CALENDAR.minNoticeMinutes * 60_000 - 1);
    }
  });

  it('cuts a range that runs past the booking window short, and says so', async () => {
    const last = localDate(Date.now() + (CALENDAR.bookAheadDays - 2) * 86_400_000, CALENDAR.timezone);
    const body = await availability({ date: last, days: 14 });
    expect(body.days.length).toBeLessThanOrEqual(3);
    expect(body.summary).toContain('Bookings open only up to');
  });

  it('refuses a day in the past, saying what today is', async () => {
    const response = await call('check_availability', { date: '2020-01-06' });
    expect(response.status).toBe(422);
    const error = await errorOf(response);
    expect(error.code).toBe('date_in_past');
    expect(error.message).toContain(`today is`);
    expect(error.message).toContain(localDate(Date.now(), CALENDAR.timezone));
  });

  it('refuses a day beyond the booking window', async () => {
    const far = localDate(Date.now() + (CALENDAR.bookAheadDays + 5) * 86_400_000, CALENDAR.timezone);
    const error = await errorOf(await call('check_availability', { date: far }));
    expect(error.code).toBe('outside_booking_window');
  });

  it.each([
    ['date', { date: '30/03/2026' }],
    ['date', { date: '2026-02-30' }],
    ['days', { days: 0 }],
    ['days', { days: 15 }],
    ['days', { days: 1.5 }],
  ])('answers 422 naming "%s" when it is not valid', async (argument, args) => {
    const response = await call('check_availability', args);
    expect(response.status).toBe(422);
    const error = await errorOf(response);
    expect(error.code).toBe('invalid_arguments');
    expect(error.details).toEqual([expect.objectContaining({ argument })]);
  });
});
