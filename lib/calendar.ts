// The bookings of one calendar, in one Durable Object with SQLite storage. Every method is
// synchronous: a Durable Object runs one call at a time and nothing can interleave a call that
// never awaits, so "is the slot free?" and "take it" are one step. A unique index on the start of
// confirmed bookings backs that up: two bookings of one slot cannot both be stored.
import { DurableObject } from 'cloudflare:workers';
import type { Env } from 'agent-functions';
import { FunctionError } from 'agent-functions';
import type { CalendarConfig } from './slots.ts';

/** One booking as stored; times are UTC ISO instants. */
export interface Booking {
  reference: string;
  start: string;
  end: string;
  name: string;
  phone: string;
  email: string | null;
  notes: string | null;
  status: 'confirmed' | 'cancelled';
  createdAt: string;
}

/** What the calendar needs to book a slot. */
export interface BookingRequest {
  start: string;
  end: string;
  name: string;
  /** Normalised ("+447700900123"): with the start, it makes a repeated request the same booking. */
  phone: string;
  email?: string | undefined;
  notes?: string | undefined;
  now: string;
  maxUpcomingPerCustomer: number;
}

export type BookResult =
  | { outcome: 'booked' | 'existing'; booking: Booking }
  | { outcome: 'taken' }
  | { outcome: 'limit'; upcoming: number };

export type ChangeResult =
  | {
      outcome: 'cancelled' | 'already_cancelled' | 'rescheduled' | 'unchanged';
      booking: Booking;
      previousStart: string;
    }
  | { outcome: 'not_found' }
  | { outcome: 'past' }
  | { outcome: 'taken' };

// Unambiguous when read aloud or typed: no 0/O, no 1/I.
const ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';

/** A new booking reference, "K7M2-Q9TX": 40 random bits, so references cannot be guessed. */
export const newReference = (): string => {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  const chars = [...bytes].map((b) => ALPHABET[b % ALPHABET.length]).join('');
  return `${chars.slice(0, 4)}-${chars.slice(4)}`;
};

/** A reference as the customer may say it ("k7m2 q9tx") in its stored form. */
export const normalizeReference = (text: string): string => {
  const chars = text.toUpperCase().replace(/[^0-9A-Z]/g, '');
  return chars.length === 8 ? `${chars.slice(0, 4)}-${chars.slice(4)}` : chars;
};

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS bookings (
    reference TEXT PRIMARY KEY,
    start TEXT NOT NULL,
    end TEXT NOT NULL,
    name TEXT NOT NULL,
    phone TEXT NOT NULL,
    email TEXT,
    notes TEXT,
    status TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE UNIQUE INDEX IF NOT EXISTS one_booking_per_slot ON bookings(start) WHERE status = 'confirmed';
  CREATE INDEX IF NOT EXISTS bookings_by_phone ON bookings(phone, start);
`;

type Row = Record<string, SqlStorageValue>;

const toBooking = (row: Row): Booking => ({
  reference: String(row.reference),
  start: String(row.start),
  end: String(row.end),
  name: String(row.name),
  phone: String(row.phone),
  email: row.email === null ? null : String(row.email),
  notes: row.notes === null ? null : String(row.notes),
  status: row.status === 'cancelled' ? 'cancelled' : 'confirmed',
  createdAt: String(row.created_at),
});

/** One calendar's bookings (wrangler.toml binds it as CALENDAR; worker.ts exports it). */
export class BookingCalendar extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec(SCHEMA);
  }

  private one(query: string, ...bindings: SqlStorageValue[]): Booking | undefined {
    const row = this.ctx.storage.sql.exec<Row>(query, ...bindings).toArray()[0];
    return row ? toBooking(row) : undefined;
  }

  private holder(start: string): Booking | undefined {
    return this.one(`SELECT * FROM bookings WHERE start = ? AND status = 'confirmed'`, start);
  }

  /** Books a slot; the same customer asking for the same slot again gets the same booking. */
  book(request: BookingRequest): BookResult {
    return this.ctx.storage.transactionSync((): BookResult => {
      const holder = this.holder(request.start);
      if (holder)
        return holder.phone === request.phone ? { outcome: 'existing', booking: holder } : { outcome: 'taken' };
      const upcoming = Number(
        this.ctx.storage.sql
          .exec(
            `SELECT count(*) AS n FROM bookings WHERE phone = ? AND status = 'confirmed' AND start > ?`,
            request.phone,
            request.now,
          )
          .one().n,
      );
      if (upcoming >= request.maxUpcomingPerCustomer) return { outcome: 'limit', upcoming };
      let reference = newReference();
      while (this.one('SELECT * FROM bookings WHERE reference = ?', reference)) reference = newReference();
      this.ctx.storage.sql.exec(
        `INSERT INTO bookings (reference, start, end, name, phone, email, notes, status, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, 'confirmed', ?)`,
        reference,
        request.start,
        request.end,
        request.name,
        request.phone,
        request.email ?? null,
        request.notes ?? null,
        request.now,
      );
      return {
        outcome: 'booked',
        booking: this.one('SELECT * FROM bookings WHERE reference = ?', reference) as Booking,
      };
    });
  }

  /** Starts (UTC ISO) of the confirmed bookings from `from` up to, not including, `to`. */
  taken(from: string, to: string): string[] {
    return this.ctx.storage.sql
      .exec<{ start: string }>(
        `SELECT start FROM bookings WHERE status = 'confirmed' AND start >= ? AND start < ? ORDER BY start`,
        from,
        to,
      )
      .toArray()
      .map((row) => row.start);
  }

  // A reference alone is not enough to change a booking: the phone it was made with must match,
  // and a wrong pair answers exactly like an unknown reference.
  private owned(reference: string, phone: string): Booking | undefined {
    return this.one('SELECT * FROM bookings WHERE reference = ? AND phone = ?', reference, phone);
  }

  /** Cancels a booking; cancelling it again answers the same. */
  cancel(reference: string, phone: string, now: string): ChangeResult {
    return this.ctx.storage.transactionSync((): ChangeResult => {
      const booking = this.owned(reference, phone);
      if (!booking) return { outcome: 'not_found' };
      if (booking.status === 'cancelled')
        return { outcome: 'already_cancelled', booking, previousStart: booking.start };
      if (booking.start <= now) return { outcome: 'past' };
      this.ctx.storage.sql.exec(`UPDATE bookings SET status = 'cancelled' WHERE reference = ?`, reference);
      return { outcome: 'cancelled', booking: { ...booking, status: 'cancelled' }, previousStart: booking.start };
    });
  }

  /** Moves a booking to another free slot; moving it to where it already is answers the same. */
  reschedule(reference: string, phone: string, start: string, end: string, now: string): ChangeResult {
    return this.ctx.storage.transactionSync((): ChangeResult => {
      const booking = this.owned(reference, phone);
      if (!booking || booking.status === 'cancelled') return { outcome: 'not_found' };
      if (booking.start === start) return { outcome: 'unchanged', booking, previousStart: booking.start };
      if (booking.start <= now) return { outcome: 'past' };
      if (this.holder(start)) return { outcome: 'taken' };
      this.ctx.storage.sql.exec('UPDATE bookings SET start = ?, end = ? WHERE reference = ?', start, end, reference);
      return { outcome: 'rescheduled', booking: { ...booking, start, end }, previousStart: booking.start };
    });
  }
}

/**
 * The Durable Object holding `config`'s bookings of one platform account: one per calendar of each
 * client business, so two accounts never share a slot or see each other's bookings.
 * @example await calendarOf(env, CALENDAR, context.account).taken(from, to)
 */
export const calendarOf = (
  env: Env,
  config: CalendarConfig,
  account: { name: string },
): DurableObjectStub<BookingCalendar> => {
  if (!env.CALENDAR) {
    throw new FunctionError(
      503,
      'not_configured',
      'Booking is not available right now: the calendar is not configured. Tell the customer you cannot book at the moment and offer another way to help.',
    );
  }
  return env.CALENDAR.getByName(`${account.name}/${config.id}`);
};
