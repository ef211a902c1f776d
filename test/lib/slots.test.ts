// The slot arithmetic under clock changes, on fixed dates (London changes on the last Sunday of
// March and October at 01:00 UTC; New York on the second Sunday of March).
import { describe, expect, it } from 'vitest';
import { type CalendarConfig, isoLocal, localInstant, parseStart, slotsOn, spokenTime } from '../../lib/slots.ts';

const night: CalendarConfig = {
  id: 'test',
  label: 'a test',
  timezone: 'Europe/London',
  slotMinutes: 30,
  hours: { 0: [['00:00', '03:00']] },
  closedDates: [],
  minNoticeMinutes: 0,
  bookAheadDays: 1,
  maxUpcomingPerCustomer: 1,
};

describe('slots across clock changes', () => {
  it('turns local times into instants with the offset of that day', () => {
    expect(localInstant('2026-01-12', '10:00', 'Europe/London')).toBe(Date.parse('2026-01-12T10:00:00Z'));
    expect(localInstant('2026-07-13', '10:00', 'Europe/London')).toBe(Date.parse('2026-07-13T09:00:00Z'));
    expect(localInstant('2026-07-13', '10:00', 'America/New_York')).toBe(Date.parse('2026-07-13T14:00:00Z'));
  });

  it('has no slots in the hour the clocks skip, and keeps the rest of that night', () => {
    const times = slotsOn(night, '2026-03-29').map((s) => s.time);
    expect(times).toEqual(['00:00', '00:30', '02:00', '02:30']);
    expect(localInstant('2026-03-29', '01:30', 'Europe/London')).toBeUndefined();
  });

  it('gives a repeated hour its first occurrence, once', () => {
    const slots = slotsOn(night, '2026-10-25');
    expect(slots.map((s) => s.time)).toEqual(['00:00', '00:30', '01:00', '01:30', '02:00', '02:30']);
    expect(slots[2]?.start).toBe('2026-10-25T00:00:00.000Z');
    expect(slots[2]?.local).toBe('2026-10-25T01:00:00+01:00');
    expect(slots[4]?.local).toBe('2026-10-25T02:00:00+00:00');
  });

  it('writes local times with their offset, negative ones too', () => {
    expect(isoLocal(Date.parse('2026-03-08T06:30:00Z'), 'America/New_York')).toBe('2026-03-08T01:30:00-05:00');
    expect(isoLocal(Date.parse('2026-03-08T07:30:00Z'), 'America/New_York')).toBe('2026-03-08T03:30:00-04:00');
    expect(isoLocal(Date.parse('2026-03-30T09:00:00Z'), 'Asia/Kolkata')).toBe('2026-03-30T14:30:00+05:30');
  });

  it('reads a start with an offset, with Z, or as local time in the business timezone', () => {
    const instant = Date.parse('2026-03-30T09:00:00Z');
    expect(parseStart('2026-03-30T10:00:00+01:00', 'Europe/London')).toBe(instant);
    expect(parseStart('2026-03-30T09:00:00Z', 'Europe/London')).toBe(instant);
    expect(parseStart('2026-03-30T10:00', 'Europe/London')).toBe(instant);
    expect(parseStart('2026-03-30 10:00:00', 'Europe/London')).toBe(instant);
    expect(parseStart('2026-02-30T10:00', 'Europe/London')).toBeUndefined();
    expect(parseStart('tomorrow at ten', 'Europe/London')).toBeUndefined();
  });

  it('says a time as the customer should hear it', () => {
    expect(spokenTime(Date.parse('2026-03-30T09:00:00Z'), 'Europe/London')).toBe('Monday 30 March at 10:00');
  });
});
