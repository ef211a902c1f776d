// The settings that differ per client business (platform.accounts.json: the top-level "settings"
// are every account's defaults, an account's own "settings" override them), declared once: the
// schema below, which dev, generate, sync and `npm run accounts -- add` check every account's
// settings against (a misspelled key is refused, naming the account), and the AccountSettings type
// the handlers read as context.account.settings, made from it. Secret settings (a store's API key)
// are not here: an account's stored secrets (or, for the first account, a Worker secret), read
// with context.account.secret(name).
// Only the type reaches the Worker: nothing imports this file at run time, so zod adds nothing to it.
import { z } from 'zod';

const localTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a local time "HH:MM", 24-hour');

/** Every setting an account may have, with what it means. */
export const accountSettings = z.strictObject({
  /** IANA timezone of the business, e.g. "Europe/London" (check_opening_hours). */
  timezone: z.string().optional(),
  /** Opening hours by weekday ("0" = Sunday), local "HH:MM" 24-hour, e.g. { "1": ["09:00", "17:30"] }. */
  openingHours: z
    .record(z.string().regex(/^[0-6]$/, 'must be a weekday "0" (Sunday) to "6"'), z.tuple([localTime, localTime]))
    .optional(),
  /** The platform contact id of the team inbox handoff_to_human writes to. */
  handoffContactId: z.string().optional(),
  /** The channel of that contact (default whatsapp). */
  handoffChannel: z.string().optional(),
  /** The order API of the business's store (get_order_status); its key is the secret STORE_API_KEY. */
  storeApiUrl: z.url().optional(),
});

type Settings = z.infer<typeof accountSettings>;

declare module 'agent-functions' {
  interface AccountSettings extends Settings {}
}
