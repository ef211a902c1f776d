// The request payloads of the spec's tables, as zod schemas. The client validates with them before a
// request leaves; the local emulator validates incoming bodies with the same ones, so a payload the
// client sends is exactly a payload the emulator accepts.
import { z } from 'zod';
import { EVENT_NAME } from './contract.ts';
import { FUNCTION_NAME, type FunctionRecord, PARAMETER_TYPES } from './function.ts';

/** Whose absence and wrong type the message tells apart: "is required" or "must be a ...". */
export const missingOr =
  (field: string, expected: string): ((issue: { input?: unknown }) => string) =>
  (issue) =>
    issue.input === undefined ? `${field} is required: ${expected}` : `${field} must be ${expected}`;

export const text = (field: string, what: string): z.ZodString =>
  z
    .string({ error: missingOr(field, `a string, ${what}`) })
    .regex(/\S/, { error: `${field} must not be empty: ${what}` });

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** An https URL, or http on this machine (the emulator and `wrangler dev` run locally). */
export const endpointUrl = (field: string): z.ZodString =>
  text(field, 'an https URL').refine(
    (value) => {
      if (!URL.canParse(value)) return false;
      const url = new URL(value);
      return url.protocol === 'https:' || (url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname));
    },
    { error: `${field} must be an https URL (plain http only for localhost or 127.0.0.1)` },
  );

/** POST /v1/contacts: name, phone (international format with leading +), channel. */
export interface ContactInput {
  name: string;
  phone: string;
  channel: string;
}

/** POST /v1/messages: contactId of an existing contact, a connected channel, text. */
export interface MessageInput {
  contactId: string;
  channel: string;
  text: string;
}

/** POST /v1/webhooks: url receiving deliveries, events to subscribe to. */
export interface WebhookInput {
  url: string;
  events: string[];
}

/** PATCH /v1/webhooks/{id}: a new url, a new set of events, or both. */
export type WebhookUpdate = Partial<WebhookInput>;

/** POST /v1/sub-accounts: name, adminEmail. */
export interface SubAccountInput {
  name: string;
  adminEmail: string;
}

/** POST /v1/contacts: name, phone (international format with leading +), channel. */
export const contactInput: z.ZodType<ContactInput> = z.object({
  name: text('name', "the contact's name"),
  phone: z
    .string({ error: missingOr('phone', 'a string in international format, for example "+14155550123"') })
    .regex(/^\+[1-9]\d{6,14}$/, {
      error: 'phone must be in international format with a leading +, for example "+14155550123"',
    }),
  channel: text('channel', 'a channel identifier, for example "whatsapp"'),
});

/** POST /v1/messages: contactId of an existing contact, a connected channel, text. */
export const messageInput: z.ZodType<MessageInput> = z.object({
  contactId: text('contactId', 'the identifier of an existing contact'),
  channel: text('channel', 'a channel the account has connected, for example "whatsapp"'),
  text: text('text', 'the message body'),
});

/** POST /v1/webhooks: url receiving deliveries, events to subscribe to. */
const webhookFields = z.object({
  url: endpointUrl('url'),
  events: z
    .array(
      text('events[]', 'an event type name, for example "message.received"').regex(EVENT_NAME, {
        error: 'events[] must be event type names like "message.received" or "appointment.booked"',
      }),
      {
        error: missingOr('events', 'an array of event type names, for example ["message.received"]'),
      },
    )
    .min(1, { error: 'events must name at least one event type, for example ["message.received"]' }),
});

export const webhookInput: z.ZodType<WebhookInput> = webhookFields;

/** PATCH /v1/webhooks/{id}: a new url, a new set of events, or both (docs/platform-contract.md §7, A). */
export const webhookUpdate: z.ZodType<WebhookUpdate> = webhookFields
  .partial()
  .refine((value) => Object.keys(value).length > 0, {
    error: 'an update must change url, events or both',
  });

/** A function name, refused with the rule in words. */
export const functionName: z.ZodString = z
  .string({ error: missingOr('name', 'a string in snake_case, for example "check_order_status"') })
  .regex(FUNCTION_NAME, { error: 'name must be snake_case: a lowercase letter, then up to 63 of a-z, 0-9, _' });

/** The flat parameter map: parameter name -> one of the type names. */
export const parameterMap: z.ZodType<FunctionRecord['parameters']> = z.record(
  z
    .string()
    .min(1, { error: 'parameter names must not be empty' })
    .max(64, { error: 'parameter names are at most 64 characters' }),
  z.enum(PARAMETER_TYPES, { error: `each parameter type must be one of ${PARAMETER_TYPES.join(', ')}` }),
  {
    error: missingOr(
      'parameters',
      'an object mapping each parameter name to a type name, for example {"city": "string"}',
    ),
  },
);

const functionFields = z.object({
  name: functionName,
  description: text('description', 'what the function does and when the agent should call it'),
  url: endpointUrl('url'),
  parameters: parameterMap,
});

/** The registration record (POST /v1/custom-functions): name, description, url, parameters. */
export const functionRecord: z.ZodObject<{
  name: z.ZodString;
  description: z.ZodString;
  url: z.ZodString;
  parameters: z.ZodType<FunctionRecord['parameters']>;
}> = functionFields;

/** PATCH /v1/custom-functions/{id}: any non-empty subset of the record (A). */
export const functionRecordUpdate: z.ZodType<Partial<FunctionRecord>> = functionFields
  .partial()
  .refine((value) => Object.keys(value).length > 0, {
    error: 'an update must change at least one of name, description, url, parameters',
  });

/** POST /v1/sub-accounts: name, adminEmail. */
export const subAccountInput: z.ZodType<SubAccountInput> = z.object({
  name: text('name', "the client's display name"),
  adminEmail: z.email({ error: missingOr('adminEmail', 'an e-mail address, for example "owner@client.example"') }),
});

/** Each problem of a refused payload as `field: problem`, in one line a person can act on. */
export const describeIssues = (error: z.ZodError): string[] =>
  error.issues.map((issue) => {
    const field = issue.path.length > 0 ? issue.path.join('.') : 'body';
    return issue.message.startsWith(String(issue.path[0] ?? '')) && issue.path.length > 0
      ? issue.message
      : `${field}: ${issue.message}`;
  });
