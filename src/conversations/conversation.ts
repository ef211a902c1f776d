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

// Printable, no control characters or spaces at the ends: an id goes into logs, keys and a POST body.
const READABLE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

const readable = (value: unknown): string | undefined => {
  const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
  return typeof text === 'string' && text.length <= CONVERSATION_ID_LIMIT && READABLE.test(text) ? text : undefined;
};

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
  const take = (name: string): string | undefined => {
    if (declared.has(name) || !Object.hasOwn(top, name)) return undefined;
    const value = top[name];
    delete top[name];
    return readable(value);
  };
  const contactId = take(CONVERSATION_KEYS.contactId);
  const conversationId = take(CONVERSATION_KEYS.conversationId);
  const channel = take(CONVERSATION_KEYS.channel);
  // A conversation is someone's: without the contact, the other two name nobody.
  if (contactId === undefined) return undefined;
  return {
    contactId,
    ...(conversationId !== undefined ? { conversationId } : {}),
    ...(channel !== undefined ? { channel } : {}),
  };
};
