import { reset } from 'cloudflare:test';
import { call, errorOf } from 'agent-functions/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { bookAt, customer, freeTimes, futureDay } from './calendar.ts';

describe('cancel_appointment', () => {
  beforeEach(() => reset());

  it('cancels a booking by its reference and phone number, freeing the slot', async () => {
    const date = futureDay(1);
    const reference = await bookAt(date, '10:00', 1);
    const response = await call('cancel_appointment', { reference, phone: customer(1).phone });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { cancelled: boolean; reference: string; summary: string };
    expect(body).toMatchObject({ cancelled: true, reference });
    expect(body.summary).toContain('10:00');
    expect(await freeTimes(date)).toContain('10:00');
  });

  it('answers the same when the cancellation arrives twice', async () => {
    const reference = await bookAt(futureDay(2), '11:00', 2);
    const args = { reference, phone: '+447700900002' };
    expect((await call('cancel_appointment', args)).status).toBe(200);
    const again = await call('cancel_appointment', args);
    expect(again.status).toBe(200);
    expect(((await again.json()) as { summary: string }).summary).toContain('it already was');
  });

  it('accepts the reference as the customer may type it', async () => {
    const reference = await bookAt(futureDay(3), '09:00', 3);
    const typed = ` ${reference.toLowerCase().replace('-', ' ')} `;
    expect((await call('cancel_appointment', { reference: typed, phone: customer(3).phone })).status).toBe(200);
  });

  it("answers the same 404 for another customer's phone number as for an unknown reference", async () => {
    const reference = await bookAt(futureDay(4), '09:00', 4);
    const wrongPhone = await call('cancel_appointment', { reference, phone: customer(5).phone });
    const unknown = await call('cancel_appointment', { reference: 'ZZZZ-ZZZZ', phone: customer(4).phone });
    expect([wrongPhone.status, unknown.status]).toEqual([404, 404]);
    const [a, b] = await Promise.all([errorOf(wrongPhone), errorOf(unknown)]);
    expect(a.code).toBe('booking_not_found');
    expect(a.message).toBe(b.message);
    expect(await freeTimes(futureDay(4))).not.toContain('09:00');
  });

  it('cancels a booking made in a conversation only for the contact that made it; anyone else gets the 404', async () => {
    const date = futureDay(1, 1);
    // Booked by contact ct_vera in a conversation (customer 77's phone is +44 7700 900077).
    const reference = await bookAt(date, '10:00', 77, 'ct_vera');
    const args = { reference, phone: '+447700900077' };
    for (const other of [{ contactId: 'ct_mallory', conversationId: 'cv_m', channel: 'whatsapp' }, {}]) {
      const response = await call('cancel_appointment', { ...args, ...other });
      expect(response.status).toBe(404);
      expect((await errorOf(response)).code).toBe('booking_not_found');
    }
    expect(await freeTimes(date)).not.toContain('10:00');
    const own = await call('cancel_appointment', { ...args, contactId: 'ct_vera', conversationId: 'cv_later' });
    expect(own.status).toBe(200);
    expect(await freeTimes(date)).toContain('10:00');
  });

  it.each([
    ['reference', { phone: '+447700900001' }],
    ['reference', { reference: 'K7', phone: '+447700900001' }],
    ['phone', { reference: 'K7M2-Q9TX' }],
    ['phone', { reference: 'K7M2-Q9TX', phone: 'call me' }],
  ])('answers 422 naming "%s" when it is wrong or missing', async (argument, args) => {
    const response = await call('cancel_appointment', args);
    expect(response.status).toBe(422);
    expect((await errorOf(response)).details).toEqual([expect.objectContaining({ argument })]);
  });
});
