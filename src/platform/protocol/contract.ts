// What the client assumes where the platform spec says "not shown" (docs/platform-contract.md §5, each (A)),
// next to the few facts the spec does give. Change an assumption here and only here.

/** The spec's three key placements; `header` (X-API-Key) is the default (A). */
export type KeyPlacement = 'header' | 'bearer' | 'query';

/** Default key placement (A): the spec allows three, docs/platform-contract.md §3 picks X-API-Key. */
export const DEFAULT_KEY_PLACEMENT: KeyPlacement = 'header';

/** Header of the `header` placement (spec). */
export const API_KEY_HEADER = 'X-API-Key';

/** Query parameter of the `query` placement (spec; "intended for quick tests"). */
export const API_KEY_QUERY = 'apiKey';

/** Keys under which a list body may hold its records, when it is not a bare array (A). */
export const LIST_KEYS = ['data', 'items', 'results'] as const;

/** Keys of a list body that carry the next page's cursor or url (A). */
export const NEXT_KEYS = ['next', 'nextCursor', 'cursor'] as const;

/** Query parameter that sends a cursor back for the next page (A). */
export const CURSOR_PARAM = 'cursor';

/** Keys a returned record may carry its identifier under (A). */
export const ID_KEYS = ['id', '_id'] as const;

// A custom function's name rule and parameter types: src/platform/protocol/function.ts, with its record.

/** Shape of an event type name, `<resource>.<happening>` like the spec's two (A: the rest are not shown). */
export const EVENT_NAME: RegExp = /^[a-z][a-z_]*(?:\.[a-z][a-z_]*)+$/;

/** Pages a list may span before the client assumes the platform is looping. */
export const MAX_PAGES = 1000;

/**
 * A record id the client puts into a path (A: the spec shows no id): one segment of RFC 3986
 * unreserved characters, at most 256 of them, and never `.` or `..`, which a URL resolves to the
 * parent (`DELETE /v1/custom-functions/..` would be `DELETE /v1/`).
 */
export const SAFE_ID: RegExp = /^(?!\.{1,2}$)[A-Za-z0-9._~-]{1,256}$/;

/** Default cap of one answer's body, in bytes; a list's pages together may hold eight times this. */
export const DEFAULT_MAX_RESPONSE_BYTES: number = 4 * 1024 * 1024;

/**
 * Argument names the platform may add to a function call beside the model's (A: not shown), such
 * as contact or conversation ids. The Worker ignores them and never reads them as misspellings.
 */
export const PLATFORM_ADDED_KEY: RegExp =
  /^(?:contact|conversation|chat|message|account|channel|agent|session|thread|user)[-_]?id$/i;

// Events (docs/platform-contract.md §7, each (A) unless the spec says otherwise).

/** Where the Worker receives deliveries: one endpoint for every event type (our choice). */
export const EVENTS_PATH = '/events';

/** An account's name in the accounts file (platform.accounts.json), safe as one path segment (our choice). */
export const ACCOUNT_NAME: RegExp = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/**
 * Where one account's webhook delivers (our choice): the first account of the accounts file at
 * EVENTS_PATH, every other at EVENTS_PATH/<its name>, so the Worker knows whose signing secret
 * verifies a delivery. Sync registers these urls and the Worker serves them: change the rule here.
 * @example eventsPathOf('client-acme', false) // '/events/client-acme'
 */
export const eventsPathOf = (account: string, first: boolean): string =>
  first ? EVENTS_PATH : `${EVENTS_PATH}/${account}`;

/**
 * Every path eventsPathOf gives: what sync counts as the project's own webhook urls. A function, so
 * a Worker bundle that never asks builds no RegExp.
 */
export const eventsPathPattern = (): RegExp => new RegExp(`^${EVENTS_PATH}(?:/${ACCOUNT_NAME.source.slice(1, -1)})?$`);

/** Headers of a delivery's signature (spec). */
export const TIMESTAMP_HEADER = 'x-webhook-timestamp';
export const SIGNATURE_HEADER = 'x-webhook-signature';

/** Key of a delivery body holding the event type name (A). */
export const EVENT_TYPE_KEY = 'type';

/** Key of a delivery body holding its unique id, when the platform gives one (A). */
export const EVENT_ID_KEY = 'id';

/** Keys a signing-secret answer may hold the secret under (A). */
export const SECRET_KEYS = ['secret', 'signingSecret'] as const;

/** The list, update and delete of webhooks (A: the spec shows only POST /v1/webhooks). */
export const WEBHOOKS_PATH = '/v1/webhooks';

// Conversations (docs/platform-contract.md §9, each (A)).

/**
 * The names under which the platform adds a call's conversation identifiers beside the arguments
 * (A: not shown): top-level keys of the JSON body, or of the query string for a GET. The one
 * setting every feature that reads them (context.conversation, deduplication, follow-ups) takes.
 */
export const CONVERSATION_KEYS = {
  contactId: 'contactId',
  conversationId: 'conversationId',
  channel: 'channel',
} as const;

/** Longest identifier or channel value read from a call; a longer one is not an identifier. */
export const CONVERSATION_ID_LIMIT = 256;
