// What identifies a call within its conversation: the function and its validated arguments (or
// what the author's key function picks of them), written the same way whatever the key order.
import { sha256Hex } from '../keys.ts';

/**
 * JSON with object keys sorted at every depth, Dates as ISO strings: `{b:1,a:2}` and `{a:2,b:1}` agree.
 * @example stableJson({ b: 1, a: [new Date(0)] }) // '{"a":["1970-01-01T00:00:00.000Z"],"b":1}'
 */
export const stableJson = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    );
  }) ?? 'null';

/** The ledger key of one call of `name` whose identity is `identity`. */
export const callKeyOf = async (name: string, identity: unknown): Promise<string> =>
  `${name}:${await sha256Hex(stableJson(identity))}`;

/**
 * The name of a conversation's ledger: never the raw ids, and one account's conversation is never
 * another's, whatever ids the two hold (docs/platform-contract.md §10).
 */
export const ledgerNameOf = async (account: string, contactId: string, conversationId: string): Promise<string> =>
  `conversation-${await sha256Hex(`${account}\n${contactId}\n${conversationId}`)}`;
