// Customers who wrote "STOP": one Durable Object per platform contact remembers it, and every
// message to a customer goes through `sendToCustomer`, which refuses to write to them again.
import { DurableObject } from 'cloudflare:workers';
import type { Env } from 'agent-functions';
import type { Message, PlatformClient } from 'agent-functions/platform';

/** Words that opt a customer out or back in, compared trimmed and case-insensitively. */
export const STOP_WORDS = new Set(['stop', 'stopall', 'unsubscribe', 'cancel', 'end', 'quit']);
export const START_WORDS = new Set(['start', 'unstop', 'subscribe']);

/** What a message text asks for: opt out, opt back in, or nothing. */
export const consentOf = (text: string): 'stop' | 'start' | undefined => {
  const word = text
    .trim()
    .toLowerCase()
    .replace(/[.!]+$/, '');
  return STOP_WORDS.has(word) ? 'stop' : START_WORDS.has(word) ? 'start' : undefined;
};

/** Whether one contact opted out (wrangler.toml binds it as OPT_OUTS). */
export class OptOutList extends DurableObject<Env> {
  async set(optedOut: boolean): Promise<void> {
    if (optedOut) await this.ctx.storage.put('optedOut', Date.now());
    else await this.ctx.storage.delete('optedOut');
  }

  async optedOut(): Promise<boolean> {
    return (await this.ctx.storage.get<number>('optedOut')) !== undefined;
  }
}

const listOf = (env: Env, contactId: string) => {
  if (!env.OPT_OUTS) throw new Error('The OPT_OUTS Durable Object binding is missing (wrangler.toml).');
  return env.OPT_OUTS.getByName(contactId);
};

/** Records that `contactId` opted out (`true`) or back in (`false`). */
export const recordConsent = (env: Env, contactId: string, optedOut: boolean): Promise<void> =>
  listOf(env, contactId).set(optedOut);

/** Whether `contactId` opted out. */
export const isOptedOut = (env: Env, contactId: string): Promise<boolean> => listOf(env, contactId).optedOut();

/**
 * Sends a message to a customer unless they opted out; every message to a customer goes through it.
 * @example await sendToCustomer(context, { contactId, channel: 'whatsapp', text: 'See you tomorrow!' })
 */
export const sendToCustomer = async (
  context: { env: Env; platform: PlatformClient },
  message: { contactId: string; channel: string; text: string },
): Promise<{ sent: true; message: Message } | { sent: false; reason: 'opted_out' }> => {
  if (await isOptedOut(context.env, message.contactId)) return { sent: false, reason: 'opted_out' };
  return { sent: true, message: await context.platform.messages.send(message) };
};
