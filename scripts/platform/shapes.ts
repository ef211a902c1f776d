// Every response body the emulator sends. The spec says "not shown" for all of them, so these are
// our assumptions (within what docs/platform-contract.md §5 lets the client read); they live here, and only
// here, so a real platform's shapes can be matched by editing one file.
import type {
  AccountState,
  ContactRecord,
  CustomFunctionRecord,
  MessageRecord,
  SubAccountRecord,
  WebhookRecord,
} from './state.ts';

/** A JSON response body. */
export type Body = Record<string, unknown>;

/** Error answers: the same `{ error: { code, message } }` shape the Worker uses. */
export const errorShape = (code: string, message: string, details?: unknown): Body => ({
  error: { code, message, ...(details === undefined ? {} : { details }) },
});

/** One page of a list: `{ data: [...], next: "<cursor>" | null }`; send the cursor back as `?cursor=`. */
export const pageShape = <T>(data: T[], next: string | null): Body => ({ data, next });

export const contactShape = (contact: ContactRecord): Body => ({
  id: contact.id,
  name: contact.name,
  phone: contact.phone,
  channel: contact.channel,
  createdAt: contact.createdAt,
});

export const messageShape = (message: MessageRecord): Body => ({
  id: message.id,
  contactId: message.contactId,
  channel: message.channel,
  text: message.text,
  direction: message.direction,
  status: message.status,
  createdAt: message.createdAt,
});

/** A webhook never carries its signing secret: that is the separate sub-resource. */
export const webhookShape = (webhook: WebhookRecord): Body => ({
  id: webhook.id,
  url: webhook.url,
  events: [...webhook.events],
  createdAt: webhook.createdAt,
});

export const signingSecretShape = (webhook: WebhookRecord): Body => ({
  webhookId: webhook.id,
  secret: webhook.secret,
  createdAt: webhook.secretCreatedAt,
});

/** The answer to DELETE of anything. */
export const deletedShape = (id: string): Body => ({ id, deleted: true });

export const functionShape = (fn: CustomFunctionRecord): Body => ({
  id: fn.id,
  name: fn.name,
  description: fn.description,
  url: fn.url,
  parameters: { ...fn.parameters },
  createdAt: fn.createdAt,
  updatedAt: fn.updatedAt,
});

/** `extra` is true for an Agency sub-account beyond the included ones (charged per sub-account). */
export const subAccountShape = (sub: SubAccountRecord): Body => ({ ...sub });

/** An event delivery (docs/platform-contract.md §7): its id and type, then the event's data (payload shapes are not shown). */
export const eventShape = (
  eventId: string,
  type: string,
  account: AccountState,
  data: unknown,
): { id: string; type: string; accountId: string; createdAt: string; data: unknown } => ({
  id: eventId,
  type,
  accountId: account.id,
  createdAt: new Date().toISOString(),
  data,
});

/** A `message.received` delivery's data: the message. */
export const messageReceivedData = (message: MessageRecord): Body => ({ message: messageShape(message) });
