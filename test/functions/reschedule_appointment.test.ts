import { reset } from 'cloudflare:test';
import { call, errorOf } from 'agent-functions/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { bookAt, cancelAt, customer, freeTimes, futureDay, startAt } from './calendar.ts';

describe('reschedule_appointment', () => {
  beforeEach(() => reset());

  it('moves a booking to a free slot, keeping its reference and freeing the old slot', async () => {
    const date = futureDay(1);
    const reference = await bookAt(date, '10:00', 1);
    const response = await call('reschedule_appointment', {
      reference,
      phone: customer(1).phone,
      newStart: startAt(date, '15:00'),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { reference: string; start: string; summary: string };
    expect(body.reference).toBe(reference);
    expect(body.start).toBe(startAt(date, '15:00'));
    expect(body.summary).toMatch(/moved from .*10:00 to .*15:00/);
    const times = await freeTimes(date);
    expect(times).toContain('10:00');
    expect(times).not.toContain('15:00');
  });

  it('answers the same when the move arrives twice', async () => {
    const date = futureDay(2);
    const reference = await bookAt(date, '10:00', 2);
    const args = { reference, phone: customer(2).phone, newStart: startAt(date, '11:00') };
    expect((await call('reschedule_appointment', args)).status).toBe(200);
    const again = await call('reschedule_appointment', args);
    expect(again.status).toBe(200);
    expect(((await again.json()) as { reference: string }).reference).toBe(reference);
  });

  it("answers 409 slot_taken with other free times when the new slot is someone else's", async () => {
    const date = futureDay(3);
    const reference = await bookAt(date, '10:00', 3);
    await bookAt(date, '11:00', 4);
    const response = await call('reschedule_appointment', {
      reference,
      phone: customer(3).phone,
      newStart: startAt(date, '11:00'),
    });
    expect(response.status).toBe(409);
    const error = await errorOf(response);
    expect(error.code).toBe('slot_taken');
    expect(error.message).toContain('09:00, 09:30');
  });

  it('moves a booking made in a conversation only for the contact that made it; anyone else gets the 404', async () => {
    const date = futureDay(1, 1);
    const conversation = (contactId: string) => ({ contactId, conversationId: `cv_${contactId}`, channel: 'sms' });
    // Booked by contact ct_vera in a conversation (customer 77's phone is +44 7700 900077).
    const reference = await bookAt(date, '10:00', 77, 'ct_vera');
    const move = { reference, phone: '+447700900077', newStart: startAt(date, '11:00') };
    for (const other of [conversation('ct_mallory'), {}]) {
      const response = await call('reschedule_appointment', { ...move, ...other });
      expect((await errorOf(response)).code).toBe('booking_not_found');
    }
    expect(await freeTimes(date)).toContain('11:00');
    expect((await call('reschedule_appointment', { ...move, ...conversation('ct_vera') })).status).toBe(200);
    expect(await freeTimes(date)).not.toContain('11:00');
  });

  it('answers 404 for a wrong phone number or a cancelled booking', async () => {
    const date = futureDay(4);
    const reference = await bookAt(date, '10:00', 5);
    const move = { reference, newStart: startAt(date, '11:00') };
    const wrongPhone = await call('reschedule_appointment', { ...move, phone: customer(6).phone });
    expect((await errorOf(wrongPhone)).code).toBe('booking_not_found');
    await cancelAt(reference, 5);
    const cancelled = await call('reschedule_appointment', { ...move, phone: customer(5).phone });
    expect(cancelled.status).toBe(404);
  });

  it('refuses a new time that is not a slot', async () => {
    const date = futureDay(1, 1);
    const reference = await bookAt(date, '10:00', 7);
    const response = await call('reschedule_appointment', {
      reference,
      phone: customer(7).phone,
      newStart: startAt(date, '12:45'),
    });
    expect(response.status).toBe(422);
    expect((await errorOf(response)).details).toEqual([expect.objectContaining({ argument: 'newStart' })]);
  });

  it.each([
    ['reference', { phone: '+447700900001', newStart: '2030-01-07T10:00' }],
    ['phone', { reference: 'K7M2-Q9TX', newStart: '2030-01-07T10:00' }],
    ['newStart', { reference: 'K7M2-Q9TX', phone: '+447700900001' }],
    ['newStart', { reference: 'K7M2-Q9TX', phone: '+447700900001', newStart: 'Tuesday morning' }],
  ])('answers 422 naming "%s" when it is wrong or missing', async (argument, args) => {
    const response = await call('reschedule_appointment', args);
    expect(response.status).toBe(422);
    expect((await errorOf(response)).details).toEqual([expect.objectContaining({ argument })]);
  });
});
