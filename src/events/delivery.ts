// A delivery as the queue carries it from the endpoint to the consumer.

import { sha256Hex } from '../keys.ts';
import { EVENT_ID_KEY, EVENT_TYPE_KEY } from '../platform/protocol/contract.ts';

/** One verified delivery, queued: the raw body is kept, so the handler sees exactly what was signed. */
export interface QueuedDelivery {
  type: string;
  /** `id:<the platform's id>`, or `sig:<SHA-256 of signature and body>` when the body has no id. */
  deliveryId: string;
  body: string;
  /** Unix milliseconds at which the endpoint accepted it. */
  receivedAt: number;
  /** The accounts-file name of the account whose webhook delivered it (the path it came to). */
  account?: string;
}

/** The type and id of a delivery body (docs/platform-contract.md §7), or why it has none. */
export const envelopeOf = (
  body: string,
): { ok: true; type: string; id: string | undefined } | { ok: false; problem: string } => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { ok: false, problem: 'the body is not JSON' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { ok: false, problem: 'the body is not a JSON object' };
  }
  const record = parsed as Record<string, unknown>;
  const type = record[EVENT_TYPE_KEY];
  if (typeof type !== 'string' || type === '') return { ok: false, problem: `"${EVENT_TYPE_KEY}" is missing` };
  const id = record[EVENT_ID_KEY];
  return { ok: true, type, id: typeof id === 'string' || typeof id === 'number' ? String(id) : undefined };
};

/**
 * The key a repeat of this delivery shares: the platform's id, else its signature and body (a
 * redelivery re-signed with a new timestamp then counts as new: handlers stay idempotent).
 * @example await deliveryIdOf('evt_1', signature, body) // 'id:evt_1'
 */
export const deliveryIdOf = async (id: string | undefined, signature: string, body: string): Promise<string> =>
  id !== undefined ? `id:${id}` : `sig:${await sha256Hex(`${signature.trim().toLowerCase()}\n${body}`)}`;

/**
 * A ledger key within one account's events: nothing says the platform's ids (of events, bookings,
 * messages) are unique across accounts, so two accounts never share a key.
 * @example withinAccount('acme', 'id:evt_1') // 'acme/id:evt_1'
 */
export const withinAccount = (account: string | undefined, key: string): string =>
  account === undefined ? key : `${account}/${key}`;

/** What the ledger remembers a delivery by: its key within the account whose webhook delivered it. */
export const ledgerKeyOf = (delivery: QueuedDelivery): string => withinAccount(delivery.account, delivery.deliveryId);
