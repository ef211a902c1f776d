// One platform contact per phone number. The platform's API can list and create contacts but has
// no "find or create", so two calls for one number at once (a retry, a model repeating itself)
// could both list, both find nothing and both create. One Durable Object per phone number runs
// those calls one after another and remembers the answer.
import { DurableObject } from 'cloudflare:workers';
import type { Env } from 'agent-functions';
import { FunctionError } from 'agent-functions';
import type { Contact } from 'agent-functions/platform';
import { createPlatformClient, PlatformError } from 'agent-functions/platform';
import { normalizePhone } from './customer.ts';

/** What the directory needs to find or create a contact; `phone` is normalised ("+447700900123"). */
export interface ContactRequest {
  name: string;
  phone: string;
  channel: string;
}

/** Where the platform is: the calling Worker's PLATFORM_BASE_URL and PLATFORM_API_KEY. */
export interface PlatformConfig {
  baseUrl: string;
  apiKey: string;
}

/** The outcome, as plain data: errors do not keep their class across a Durable Object call. */
export type ContactResult =
  | { ok: true; contactId: string; created: boolean }
  | { ok: false; status: number; code: string; retryable: boolean };

// Short enough that the function (10 s limit) still answers politely when the platform is slow.
const PLATFORM_TIMEOUT_MS = 3_000;
// A contact deleted on the platform is found again after a day.
const REMEMBER_MS = 24 * 3600_000;

/** The contact of one phone number (wrangler.toml binds it as CONTACTS; worker.ts exports it). */
export class ContactDirectory extends DurableObject<Env> {
  private queue: Promise<unknown> = Promise.resolve();

  /** The contact with this phone number, created when there is none; one call at a time. */
  findOrCreate(request: ContactRequest, platform: PlatformConfig): Promise<ContactResult> {
    // The platform calls await, and a Durable Object takes other calls meanwhile: queue them.
    const run = this.queue.then(() => this.lookUp(request, platform));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async lookUp(request: ContactRequest, config: PlatformConfig): Promise<ContactResult> {
    // Per platform account: one Worker may serve several (sub-)accounts.
    const key = `contact:${config.baseUrl}`;
    const known = await this.ctx.storage.get<{ contactId: string; at: number }>(key);
    if (known && Date.now() - known.at < REMEMBER_MS) return { ok: true, contactId: known.contactId, created: false };
    const platform = createPlatformClient({
      ...config,
      timeoutMs: PLATFORM_TIMEOUT_MS,
      retry: { retries: 1, maxRetryAfterMs: 2_000 },
    });
    try {
      const same = (c: Contact) => typeof c.phone === 'string' && normalizePhone(c.phone) === request.phone;
      const existing = (await platform.contacts.list()).find(same);
      const contact = existing ?? (await platform.contacts.create(request));
      await this.ctx.storage.put(key, { contactId: contact.id, at: Date.now() });
      return { ok: true, contactId: contact.id, created: !existing };
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error;
      return { ok: false, status: error.status, code: error.code, retryable: error.retryable };
    }
  }
}

/**
 * The platform contact of a customer, created once however many calls ask at the same time.
 * Throws a FunctionError the model can relay when the platform cannot be reached.
 * @example const { contactId, created } = await contactFor(env, { name, phone, channel: 'whatsapp' })
 */
export const contactFor = async (
  env: Env,
  request: ContactRequest,
): Promise<{ contactId: string; created: boolean }> => {
  if (!env.CONTACTS) {
    throw new FunctionError(
      503,
      'not_configured',
      'Saving contacts is not set up. Carry on helping the customer without it.',
    );
  }
  if (!env.PLATFORM_BASE_URL || !env.PLATFORM_API_KEY) {
    throw new FunctionError(
      503,
      'platform_not_configured',
      'This function cannot reach the messaging platform: PLATFORM_BASE_URL or PLATFORM_API_KEY is not set on the Worker. Carry on helping the customer; their details were not saved.',
    );
  }
  const result = await env.CONTACTS.getByName(request.phone).findOrCreate(request, {
    baseUrl: env.PLATFORM_BASE_URL,
    apiKey: env.PLATFORM_API_KEY,
  });
  if (result.ok) return { contactId: result.contactId, created: result.created };
  throw new FunctionError(
    502,
    'platform_unavailable',
    `The customer's details could not be saved just now (the platform answered ${result.status || 'nothing'}). Carry on helping the customer; ${result.retryable ? 'you may call this function again in a minute.' : 'do not call this function again in this conversation.'}`,
  );
};
