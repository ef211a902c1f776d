// One platform contact per phone number of each platform account. The platform's API can list and
// create contacts but has no "find or create", so two calls for one number at once (a retry, a model
// repeating itself) could both list, both find nothing and both create. One Durable Object per
// account and phone number runs those calls one after another and remembers the answer. The
// platform calls themselves run in the calling Worker, with the account's own client (a function
// passed over RPC): the account's key never leaves the call.
import { DurableObject } from 'cloudflare:workers';
import type { CallAccount, Env } from 'agent-functions';
import { FunctionError } from 'agent-functions';
import type { Contact, PlatformClient } from 'agent-functions/platform';
import { PlatformError } from 'agent-functions/platform';
import { normalizePhone } from './customer.ts';

/** What the directory needs to find or create a contact; `phone` is normalised ("+447700900123"). */
export interface ContactRequest {
  name: string;
  phone: string;
  channel: string;
}

/** The outcome, as plain data: errors do not keep their class across a Durable Object call. */
export type ContactResult =
  | { ok: true; contactId: string; created: boolean }
  | { ok: false; status: number; code: string; retryable: boolean };

// A contact deleted on the platform is found again after a day.
const REMEMBER_MS = 24 * 3600_000;
const KEY = 'contact';

/** The contact of one phone number of one account (wrangler.toml binds it as CONTACTS; worker.ts exports it). */
export class ContactDirectory extends DurableObject<Env> {
  private queue: Promise<unknown> = Promise.resolve();

  /** The contact with this phone number, from `lookUp` (run in the caller) when none is remembered; one call at a time. */
  findOrCreate(lookUp: () => Promise<ContactResult>): Promise<ContactResult> {
    // lookUp awaits the platform, and a Durable Object takes other calls meanwhile: queue them.
    const run = this.queue.then(() => this.remembered(lookUp));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async remembered(lookUp: () => Promise<ContactResult>): Promise<ContactResult> {
    const known = await this.ctx.storage.get<{ contactId: string; at: number }>(KEY);
    if (known && Date.now() - known.at < REMEMBER_MS) return { ok: true, contactId: known.contactId, created: false };
    const result = await lookUp();
    if (result.ok) await this.ctx.storage.put(KEY, { contactId: result.contactId, at: Date.now() });
    return result;
  }
}

/** Lists, then creates when the number is not there: one look-up with the account's client. */
const lookUpWith = (platform: PlatformClient, request: ContactRequest) => async (): Promise<ContactResult> => {
  try {
    const same = (c: Contact) => typeof c.phone === 'string' && normalizePhone(c.phone) === request.phone;
    const existing = (await platform.contacts.list()).find(same);
    const contact = existing ?? (await platform.contacts.create(request));
    return { ok: true, contactId: contact.id, created: !existing };
  } catch (error) {
    if (!(error instanceof PlatformError)) throw error;
    return { ok: false, status: error.status, code: error.code, retryable: error.retryable };
  }
};

/**
 * The platform contact of a customer of the call's account, created once however many calls ask
 * at the same time. Throws a FunctionError the model can relay when the platform cannot be reached.
 * @example const { contactId, created } = await contactFor(context, { name, phone, channel: 'whatsapp' })
 */
export const contactFor = async (
  context: { env: Env; account: CallAccount; platform: PlatformClient },
  request: ContactRequest,
): Promise<{ contactId: string; created: boolean }> => {
  const { env, account } = context;
  if (!env.CONTACTS) {
    throw new FunctionError(
      503,
      'not_configured',
      'Saving contacts is not set up. Carry on helping the customer without it.',
    );
  }
  // context.platform answers a 503 naming what is missing when the account cannot reach the platform.
  const lookUp = lookUpWith(context.platform, request);
  const result = await env.CONTACTS.getByName(`${account.name}/${request.phone}`).findOrCreate(lookUp);
  if (result.ok) return { contactId: result.contactId, created: result.created };
  throw new FunctionError(
    502,
    'platform_unavailable',
    `The customer's details could not be saved just now (the platform answered ${result.status || 'nothing'}). Carry on helping the customer; ${result.retryable ? 'you may call this function again in a minute.' : 'do not call this function again in this conversation.'}`,
  );
};
