// Customers who wrote "STOP": one Durable Object per customer of each platform account remembers it, and every
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

/**
 * What one customer of one platform account said (wrangler.toml binds it as OPT_OUTS): the same
 * contact id in two accounts is two customers, so each account keeps its own answer. An instance
 * named by the bare contact id is a record from before consent was kept per account.
 */
export class OptOutList extends DurableObject<Env> {
  async set(optedOut: boolean): Promise<void> {
    await this.ctx.storage.put('consent', optedOut ? 'stop' : 'start');
  }

  /** 'stop' or 'start' as last written, or undefined when this customer never said either. */
  async consent(): Promise<'stop' | 'start' | undefined> {
    const said = await this.ctx.storage.get<'stop' | 'start'>('consent');
    if (said !== undefined) return said;
    // Written before consent was kept per account: a STOP then was recorded under the contact id alone.
    return (await this.ctx.storage.get<number>('optedOut')) !== undefined ? 'stop' : undefined;
  }
}

const listOf = (env: Env, name: string) => {
  if (!env.OPT_OUTS) throw new Error('The OPT_OUTS Durable Object binding is missing (wrangler.toml).');
  return env.OPT_OUTS.getByName(name);
};

/**
 * Where one account's customer's consent lives. The framework names every call's and event's account
 * (the first account's own name for a url or delivery that names none), so no account is assumed here.
 */
const nameOf = (account: string | undefined, contactId: string) => {
  if (!account) throw new Error('No account to keep consent in: the Worker resolved none for this message.');
  return `${account}/${contactId}`;
};

/** Records that `contactId` of `account` opted out (`true`) or back in (`false`). */
export const recordConsent = async (env: Env, account: string | undefined, contactId: string, optedOut: boolean) =>
  listOf(env, nameOf(account, contactId)).set(optedOut);

/**
 * Whether `contactId` of `account` opted out. A STOP recorded before consent was kept per account
 * cannot say which account it came from, so it keeps silencing the contact id in every account
 * until that account's customer writes START: never a message to someone who may have opted out.
 */
export const isOptedOut = async (env: Env, account: string | undefined, contactId: string): Promise<boolean> => {
  const said = await listOf(env, nameOf(account, contactId)).consent();
  if (said !== undefined) return said === 'stop';
  return (await listOf(env, contactId).consent()) === 'stop';
};

/**
 * Sends a message to a customer unless they opted out in the account the message goes out from
 * (`context.account`: an event's account name, or a function's account); every message to a
 * customer goes through it.
 * @example await sendToCustomer(context, { contactId, channel: 'whatsapp', text: 'See you tomorrow!' })
 */
export const sendToCustomer = async (
  context: { env: Env; platform: PlatformClient; account?: string | { name: string } | undefined },
  message: { contactId: string; channel: string; text: string },
): Promise<{ sent: true; message: Message } | { sent: false; reason: 'opted_out' }> => {
  const account = typeof context.account === 'object' ? context.account.name : context.account;
  if (await isOptedOut(context.env, account, message.contactId)) return { sent: false, reason: 'opted_out' };
  return { sent: true, message: await context.platform.messages.send(message) };
};

/**
 * createWorker's `mayMessage` (worker.ts): a deferred call's follow-up goes out only to a customer
 * who has not opted out in the call's own account.
 * @example createWorker({ functions, mayMessage })
 */
export const mayMessage = async (env: Env, to: { account: string; contactId: string }): Promise<boolean> =>
  !(await isOptedOut(env, to.account, to.contactId));
