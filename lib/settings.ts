// The settings that differ per client business (platform.accounts.json: the top-level "settings"
// are every account's defaults, an account's own "settings" override them), typed for the handlers
// that read them as context.account.settings. Secret settings (a store's API key) are not here: an
// account's stored secrets (or, for the first account, a Worker secret), read with
// context.account.secret(name).

declare module 'agent-functions' {
  interface AccountSettings {
    /** IANA timezone of the business, e.g. "Europe/London" (check_opening_hours). */
    timezone?: string;
    /** Opening hours by weekday ("0" = Sunday), local "HH:MM" 24-hour, e.g. { "1": ["09:00", "17:30"] }. */
    openingHours?: Record<string, [open: string, close: string]>;
    /** The platform contact id of the team inbox handoff_to_human writes to. */
    handoffContactId?: string;
    /** The channel of that contact (default whatsapp). */
    handoffChannel?: string;
    /** The order API of the business's store (get_order_status); its key is the secret STORE_API_KEY. */
    storeApiUrl?: string;
  }
}

export {};
