// Which conversation a call belongs to (docs/platform-contract.md §9): read from the keys the
// platform adds beside the arguments, and taken out of them, so a handler never receives them as
// arguments and validation never sees them. Nothing is guessed: an absent or unreadable value is absent.
import { CONVERSATION_ID_LIMIT, CONVERSATION_KEYS } from './platform/protocol/contract.ts';

/** The conversation a platform call comes from; absent under MCP and when the platform sent none. */
export interface Conversation {
  /** The contact the agent is talking to. */
  contactId: string;
  /** The conversation, when the platform names it: deduplication needs it. */
  conversationId?: string;
  /** The channel as `POST /v1/messages` takes it, when the platform sends it: follow-ups need it. */
  channel?: string;
}

// Printable ASCII without spaces: an id goes into ledger keys and a POST body, never into a log.
const READABLE = /^[\x21-\x7e]+$/;

// Identifiers may arrive as whole numbers (docs/platform-contract.md §9): read as their decimal text.
const readable = (value: unknown): string | undefined => {
  const text = Number.isSafeInteger(value) ? String(value) : value;
  return typeof text === 'string' && text.length <= CONVERSATION_ID_LIMIT && READABLE.test(text) ? text : undefined;
};

// Each identifier's field and the key the platform sends it under, listed once per isolate.
const KEYS = Object.entries(CONVERSATION_KEYS);

/** What takeConversation found: the conversation, and the names of identifiers present but unreadable. */
export interface TakenConversation {
  conversation?: Conversation;
  unreadable?: string[];
}

/**
 * Takes the conversation identifiers out of `top` (the body's top-level object or the query's
 * keys). A key the function declares as a parameter stays an argument; contactId and
 * conversationId never can be one (the definition is refused, src/schema/describe.ts). An
 * identifier that is present but unreadable (a space, a fraction, an object) is named in
 * `unreadable`, so a feature that needs it can say so rather than quietly do without.
 * @example takeConversation({ contactId: 98765, orderNumber: '42' }, new Set(['orderNumber'])) // { conversation: { contactId: '98765' } }
 */
export const takeConversation = (
  top: Record<string, unknown>,
  declared: { has(name: string): boolean },
): TakenConversation => {
  const taken: TakenConversation = {};
  // Made only when the call carries an identifier: most calls allocate nothing here.
  let found: Record<string, string> | undefined;
  for (const [field, key] of KEYS) {
    if (declared.has(key) || !Object.hasOwn(top, key)) continue;
    const raw = top[key];
    const value = readable(raw);
    delete top[key];
    if (value !== undefined) {
      found ??= {};
      found[field] = value;
    } else if (raw !== null && raw !== '') {
      taken.unreadable ??= [];
      taken.unreadable.push(field);
    }
  }
  // A conversation is someone's: without the contact, the other two name nobody.
  if (found?.contactId !== undefined) taken.conversation = found as unknown as Conversation;
  return taken;
};
