// book_appointment serving two client businesses from one Worker (test/twoAccounts.ts): each
// account has its own calendar.
import { reset } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { agency, clientB } from '../twoAccounts.ts';
import { customer, futureDay, startAt } from './calendar.ts';

beforeEach(() => reset());

describe('book_appointment for two client businesses on one Worker', () => {
  it("keeps their own calendars: one's booked slot is free in the other's", async () => {
    const start = startAt(futureDay(5), '10:00');
    const a = await agency.call('book_appointment', { start, ...customer(1) });
    const b = await clientB.call('book_appointment', { start, ...customer(2) });
    expect([a.status, b.status]).toEqual([200, 200]);
    const taken = await clientB.call('book_appointment', { start, ...customer(3) });
    expect(taken.status).toBe(409);
  });
});
