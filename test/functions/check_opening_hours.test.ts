import { call, errorOf } from 'agent-functions/testing';
import { describeFunction } from 'agent-functions/worker';
import { describe, expect, it } from 'vitest';
import checkOpeningHours from '../../functions/check_opening_hours.ts';

interface Hours {
  open: boolean;
  localTime: string;
  todaysHours: string;
  summary: string;
  weeklyHours: Record<string, string>;
}

const at = async (moment?: string) => {
  const response = await call('check_opening_hours', moment === undefined ? {} : { at: moment });
  expect(response.status).toBe(200);
  return (await response.json()) as Hours;
};

describe('check_opening_hours', () => {
  it('says the shop is open during hours, until when, in London summer time', async () => {
    // 09:30 UTC on a Monday in British Summer Time is 10:30 in London.
    const body = await at('2026-06-01T09:30:00Z');
    expect(body).toMatchObject({ open: true, localTime: 'Monday 10:30', todaysHours: '09:00-17:30' });
    expect(body.summary).toBe('Open now, until 17:30 (Europe/London time).');
  });

  it('says when it next opens when closed: later today, tomorrow, or a named day', async () => {
    expect((await at('2026-06-01T07:00:00+01:00')).summary).toBe(
      'Closed now. Opens today at 09:00 (Europe/London time).',
    );
    expect((await at('2026-06-01T18:00:00+01:00')).summary).toBe(
      'Closed now. Opens tomorrow at 09:00 (Europe/London time).',
    );
    expect((await at('2026-06-06T15:00:00+01:00')).summary).toBe(
      'Closed now. Opens Monday at 09:00 (Europe/London time).',
    );
  });

  it('lists the whole week with Sunday closed', async () => {
    const body = await at('2026-01-15T12:00:00Z');
    expect(body.weeklyHours).toMatchObject({ Sunday: 'closed', Thursday: '09:00-20:00', Saturday: '10:00-14:00' });
  });

  it('answers for now when no moment is given', async () => {
    expect(typeof (await at()).open).toBe('boolean');
  });

  it.each([
    ['a date without a time', '2026-06-01'],
    ['a time without an offset', '2026-06-01T10:00:00'],
    ['words', 'tomorrow morning'],
  ])('answers 422 naming "at" for %s', async (_, moment) => {
    const response = await call('check_opening_hours', { at: moment });
    expect(response.status).toBe(422);
    expect((await errorOf(response)).details).toEqual([expect.objectContaining({ argument: 'at' })]);
  });
});

describe('the enriched description of check_opening_hours', () => {
  it('says the moment is optional and in ISO 8601', () => {
    const { description, parameters } = describeFunction('check_opening_hours', checkOpeningHours);
    expect(parameters).toEqual({ at: 'string' });
    expect(description).toContain('- at (optional, string): A date and time in ISO 8601');
    expect(description).toContain('leave out for now');
  });
});
