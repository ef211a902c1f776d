// What the client returns. The spec does not show response bodies, so each record type names the
// fields the client relies on; whatever else the platform sends is kept as is.

/** A returned record: an `id` (from `id` or `_id`) and whatever else the platform sent. */
export interface PlatformRecord {
  id: string;
  [field: string]: unknown;
}

export interface Contact extends PlatformRecord {
  name?: string;
  phone?: string;
  channel?: string;
}

export interface Message extends PlatformRecord {
  contactId?: string;
  channel?: string;
  text?: string;
}

export interface Webhook extends PlatformRecord {
  url: string;
  events: string[];
}

/** A webhook's signing secret, the HMAC key of its deliveries. */
export interface SigningSecret {
  webhookId: string;
  secret: string;
}

export interface SubAccount extends PlatformRecord {
  name?: string;
  adminEmail?: string;
}
