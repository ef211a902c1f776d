// Which conversation a call belongs to (docs/platform-contract.md §9): read from the keys the
// platform adds beside the arguments, and taken out of them, so a handler never receives them as
// arguments and validation never sees them. Nothing is guessed: an absent or unreadable value is absent.
import { CONVERSATION_ID_LIMIT, CONVERSATION_KEYS } from '../platform/protocol/contract.ts';

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

const readable = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length <= CONVERSATION_ID_LIMIT && READABLE.test(value) ? value : undefined;

/**
 * Takes the conversation identifiers out of `top` (the body's top-level object or the query's
 * keys) and returns them. A key the function declares as a parameter stays an argument; contactId
 * and conversationId never can be one (the definition is refused, src/schema/describe.ts).
 * @example takeConversation({ contactId: 'c_1', orderNumber: '42' }, new Set(['orderNumber'])) // { contactId: 'c_1' }
 */
export const takeConversation = (
  top: Record<string, unknown>,
  declared: { has(name: string): boolean },
): Conversation | undefined => {
  const found: Record<string, string> = {};
  for (const [field, key] of Object.entries(CONVERSATION_KEYS)) {
    if (declared.has(key) || !Object.hasOwn(top, key)) continue;
    const value = readable(top[key]);
    delete top[key];
    if (value !== undefined) found[field] = value;
  }
  // A conversation is someone's: without the contact, the other two name nobody.
  return found.contactId === undefined ? undefined : (found as unknown as Conversation);
};
