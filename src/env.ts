import type { BookingCalendar } from '../functions/_calendar.ts';
import type { ContactDirectory } from '../functions/_contacts.ts';
import type { ReplayGuard } from './replay.ts';

/** What the Worker reads from its environment (wrangler.toml vars and `wrangler secret put`). */
export interface Env {
  /** "development" only under `npm run dev`; anything else is production. */
  AGENT_FUNCTIONS_MODE?: string;
  /** Secret from which every function's invocation key is derived (CONTRACT section 4). */
  FUNCTIONS_SECRET?: string;
  /** When set, a request carrying the platform's signature headers must verify. */
  PLATFORM_SIGNING_SECRET?: string;
  /** The platform account's base address, for functions that call the platform. */
  PLATFORM_BASE_URL?: string;
  /** The platform API key, for functions that call the platform. */
  PLATFORM_API_KEY?: string;
  /** Seen-signature store refusing replays of signed requests (wrangler.toml; absent = no replay check). */
  REPLAY_GUARD?: DurableObjectNamespace<ReplayGuard>;
  /** Rate limiter counting calls of functions that set `rateLimit` (wrangler.toml [[ratelimits]]). */
  FUNCTION_RATE_LIMIT?: RateLimit;
  /** One Durable Object per calendar, holding its bookings (functions/_calendar.ts, wrangler.toml). */
  CALENDAR?: DurableObjectNamespace<BookingCalendar>;
  /** The store's API origin for get_order_status, e.g. "https://shop.example.com/api" (a var). */
  STORE_API_URL?: string;
  /** The store's API key for get_order_status (a secret: wrangler secret put STORE_API_KEY). */
  STORE_API_KEY?: string;
  /** One Durable Object per phone number: capture_lead's contacts (functions/_contacts.ts, wrangler.toml). */
  CONTACTS?: DurableObjectNamespace<ContactDirectory>;
  /** The platform contact id of the team's inbox, where handoff_to_human sends its summary (a var). */
  HANDOFF_CONTACT_ID?: string;
  /** The channel of that inbox (a var; default "whatsapp"). */
  HANDOFF_CHANNEL?: string;
}

/** True when the Worker runs under `npm run dev` (wrangler dev with the development var). */
export const isDevelopment = (env: Env): boolean => env.AGENT_FUNCTIONS_MODE === 'development';
