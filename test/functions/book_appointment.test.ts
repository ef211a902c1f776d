import { reset } from 'cloudflare:test';
import type { FunctionError } from 'agent-functions';
import { bareContext, call, errorOf } from 'agent-functions/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import bookAppointment from '../../functions/book_appointment.ts';
import { CALENDAR } from '../../lib/slots.ts';
import { customer, freeTimes, futureDay, startAt } from './calendar.ts';

interface Booked {
  booked: boolean;
  reference: string;
  start: string;
  summary: string;
}

const book = (args: Record<string, unknown>) => call('book_appointment', args);

/** The identifiers the platform adds beside the arguments (docs/platform-contract.md §9). */
const from = (contactId: string, conversationId = `cv_${contactId}`) => ({
  contactId,
  conversationId,
  channel: 'whatsapp',
});

describe('book_appointment', () => {
  beforeEach(() => reset());

  it('books a free slot and answers with a reference the customer can quote', async () => {
    const date = futureDay(1);
    const response = await book({ start: startAt(date, '10:00'), ...customer(1), email: 'Ann@Example.com' });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Booked;
    expect(body.booked).toBe(true);
    expect(body.reference).toMatch(/^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/);
    expect(body.start).toBe(startAt(date, '10:00'));
    expect(body.summary).toContain(body.reference);
    expect(body.summary).toContain('10:00');
    expect(await freeTimes(date)).not.toContain('10:00');
  });

  it('returns the same booking when the same customer books the same slot twice, in a later conversation too', async () => {
    const args = { start: startAt(futureDay(2), '11:00'), ...customer(2) };
    const first = (await (await book({ ...args, ...from('ct_ann') })).json()) as Booked;
    const again = await book({ ...args, phone: '+447700900002', ...from('ct_ann', 'cv_later') });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(first);
  });

  it("answers another contact asking for a customer's booked slot with her phone exactly as a taken slot: no name, no reference", async () => {
    const date = futureDay(2, 1);
    const vera = { start: startAt(date, '11:00'), name: 'Vera Victim', phone: '+44 7700 900077' };
    const booked = (await (await book({ ...vera, ...from('ct_vera') })).json()) as Booked;
    const taken = await book({ start: startAt(date, '11:30'), ...customer(78), ...from('ct_other') });
    expect(taken.status).toBe(200);
    await book({ start: startAt(date, '11:30'), ...customer(79), ...from('ct_third') });
    for (const asking of [
      { ...vera, name: 'Someone', ...from('ct_mallory') },
      { ...vera, name: 'Someone' },
    ]) {
      const response = await book(asking);
      expect(response.status).toBe(409);
      const text = await response.text();
      expect(text).not.toContain('Vera');
      expect(text).not.toContain(booked.reference);
      expect(JSON.parse(text).error.code).toBe('slot_taken');
    }
    // The same words as for a slot someone else holds.
    const other = await errorOf(await book({ start: startAt(date, '11:30'), ...customer(80), ...from('ct_four') }));
    const mallory = await errorOf(await book({ ...vera, ...from('ct_mallory', 'cv_2') }));
    expect(mallory.message.replace('11:00', '11:30')).toBe(other.message);
  });

  it('returns one booking when the same request arrives twice at once', async () => {
    const args = { start: startAt(futureDay(3), '09:30'), ...customer(3), ...from('ct_3') };
    const [a, b] = await Promise.all([book(args), book(args)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const [x, y] = (await Promise.all([a.json(), b.json()])) as Booked[];
    expect(x?.reference).toBe(y?.reference);
  });

  it('gives the slot to exactly one of two customers booking it at the same moment', async () => {
    const date = futureDay(4);
    const start = startAt(date, '14:00');
    const responses = await Promise.all([book({ start, ...customer(4) }), book({ start, ...customer(5) })]);
    expect(responses.map((r) => r.status).sort()).toEqual([200, 409]);
    const loser = responses.find((r) => r.status === 409) as Response;
    const error = await errorOf(loser);
    expect(error.code).toBe('slot_taken');
    expect(error.message).toContain('has just been booked by someone else');
    expect(error.message).toMatch(/Free times on \w+ \d+ \w+: 09:00, 09:30/);
    expect(error.message).not.toContain('14:00,');
  });

  it('books a local time sent without an offset in the business timezone', async () => {
    const date = futureDay(1, 1);
    const response = await book({ start: `${date}T15:30`, ...customer(6) });
    expect(response.status).toBe(200);
    expect(((await response.json()) as Booked).start).toBe(startAt(date, '15:30'));
  });

  it('refuses a time that is not a slot start, offering the free times that day', async () => {
    const date = futureDay(2, 1);
    const response = await book({ start: startAt(date, '10:15'), ...customer(7) });
    expect(response.status).toBe(422);
    const error = await errorOf(response);
    expect(error.code).toBe('not_a_slot');
    expect(error.message).toContain('09:00, 09:30');
    expect(error.details).toEqual([expect.objectContaining({ argument: 'start' })]);
  });

  it('refuses a time outside opening hours', async () => {
    const response = await book({ start: startAt(futureDay(3, 1), '12:30'), ...customer(8) });
    expect((await errorOf(response)).code).toBe('not_a_slot');
  });

  it('refuses a time in the past, saying what today is', async () => {
    const response = await book({ start: '2020-01-06T10:00:00+00:00', ...customer(9) });
    expect(response.status).toBe(422);
    const error = await errorOf(response);
    expect(error.code).toBe('outside_booking_window');
    expect(error.message).toContain('today is');
  });

  it('refuses a time beyond the booking window', async () => {
    const far = futureDay(1, Math.ceil(CALENDAR.bookAheadDays / 7) + 1);
    const error = await errorOf(await book({ start: startAt(far, '10:00'), ...customer(10) }));
    expect(error.code).toBe('outside_booking_window');
    expect(error.message).toContain(`${CALENDAR.bookAheadDays} days`);
  });

  it('refuses one more upcoming booking than a customer may hold', async () => {
    const date = futureDay(4, 1);
    for (const time of ['09:00', '09:30', '10:00'].slice(0, CALENDAR.maxUpcomingPerCustomer)) {
      expect((await book({ start: startAt(date, time), ...customer(11) })).status).toBe(200);
    }
    const response = await book({ start: startAt(date, '10:30'), ...customer(11) });
    expect(response.status).toBe(409);
    expect((await errorOf(response)).code).toBe('booking_limit');
  });

  it.each([
    ['start', { ...customer(12) }, 'missing'],
    ['start', { start: 'next tuesday', ...customer(12) }, 'not a date and time'],
    ['name', { start: startAt(futureDay(1), '09:00'), phone: '+447700900012' }, 'missing'],
    ['name', { start: startAt(futureDay(1), '09:00'), ...customer(12), name: '  ' }, '1 to 100 characters'],
    ['phone', { start: startAt(futureDay(1), '09:00'), name: 'Ann' }, 'missing'],
    ['phone', { start: startAt(futureDay(1), '09:00'), name: 'Ann', phone: '07700 900012' }, 'international'],
    ['email', { start: startAt(futureDay(1), '09:00'), ...customer(12), email: 'ann at example' }, 'email'],
    ['notes', { start: startAt(futureDay(1), '09:00'), ...customer(12), notes: 'x'.repeat(501) }, '500'],
  ])('answers 422 naming "%s" when it is wrong or missing', async (argument, args, words) => {
    const response = await book(args);
    expect(response.status).toBe(422);
    const error = await errorOf(response);
    expect(error.code).toBe('invalid_arguments');
    expect(error.details).toEqual([expect.objectContaining({ argument })]);
    expect(error.message.toLowerCase()).toContain(words.toLowerCase());
  });

  it('answers 503 when the calendar binding is missing', async () => {
    const context = bareContext();
    const run = bookAppointment.handler(
      { start: startAt(futureDay(1), '09:00'), name: 'Ann', phone: '+447700900012' },
      context,
    );
    await expect(run).rejects.toMatchObject({ status: 503, code: 'not_configured' } satisfies Partial<FunctionError>);
  });
});
