// Emulator-only endpoints under /_emulator/ (not the platform's API): playing the agent, and an
// inbound customer message that triggers signed `message.received` deliveries, and any event emitted.

import { CONVERSATION_KEYS, EVENT_NAME, FUNCTION_NAME } from 'agent-functions/platform';
import { z } from 'zod';
import { deliverEvent } from '../deliver.ts';
import { EmulatorError } from '../http.ts';
import { type OutboundOutcome, postJson } from '../outbound.ts';
import type { Route, RouteContext } from '../route.ts';
import { found, validBody } from '../route.ts';
import { messageReceivedData, messageShape } from '../shapes.ts';
import { nextId, recordActivity } from '../state.ts';
import { activityShape } from './activity.ts';

const callInput = z.object({
  name: z.string({ error: 'name is required: the registered function to call' }).regex(FUNCTION_NAME, {
    error: 'name must be a registered function name',
  }),
  arguments: z.record(z.string(), z.unknown(), { error: 'arguments must be a JSON object' }).default({}),
  // The conversation the call comes from (docs/platform-contract.md §9); defaults: the account's
  // emulator customer, one conversation per contact, the contact's channel.
  contactId: z.string().min(1).optional(),
  conversationId: z.string().min(1).max(256).optional(),
  channel: z.string().min(1).optional(),
  /** How long the agent waits for the answer (default: the emulator's answerDeadlineMs). */
  deadlineMs: z.number().int().min(50).max(120_000).optional(),
  /** A barge-in: the same call sent again `count` times, `afterMs` after the first, while it may still run. */
  reissue: z
    .object({
      afterMs: z.number().int().min(0).max(60_000).default(0),
      count: z.number().int().min(1).max(5).default(1),
    })
    .optional(),
});

/** The contact the emulator's agent talks to when a call names none. */
const EMULATOR_CUSTOMER = { name: 'Emulator customer', phone: '+15555550123', channel: 'whatsapp' };

/** The conversation of one agent call: the named contact, or the account's emulator customer. */
const conversationOf = (
  { account }: RouteContext,
  input: z.output<typeof callInput>,
): { contactId: string; conversationId: string; channel: string } => {
  let contact = input.contactId
    ? found(account.contacts, input.contactId, 'contact')
    : [...account.contacts.values()].find((candidate) => candidate.name === EMULATOR_CUSTOMER.name);
  if (!contact) {
    const { id, seq } = nextId(account, 'ct');
    contact = { id, seq, ...EMULATOR_CUSTOMER, createdAt: new Date().toISOString() };
    account.contacts.set(id, contact);
  }
  return {
    contactId: contact.id,
    conversationId: input.conversationId ?? `cv_${contact.id}`,
    channel: input.channel ?? contact.channel,
  };
};

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const inboundInput = z.object({
  contactId: z.string({ error: 'contactId is required: the contact who writes in' }).min(1),
  channel: z.string().min(1).optional(),
  text: z.string({ error: 'text is required: what the customer writes' }).min(1),
});

const emitInput = z.object({
  type: z.string({ error: 'type is required: an event type, e.g. "appointment.booked"' }).regex(EVENT_NAME, {
    error: 'type must be an event type name like "appointment.booked"',
  }),
  data: z.unknown().default({}),
});

export const emulatorRoutes: Route[] = [
  {
    method: 'GET',
    path: '/_emulator/activity',
    // Emulator-only inspection (the dev console reads it): the account's calls played as the agent,
    // its event deliveries with each webhook's answer, and its messages, after ?after=<seq>.
    handler: async ({ account, url }) => ({ status: 200, body: activityShape(account, url) }),
  },
  {
    method: 'POST',
    path: '/_emulator/emit',
    // Something happened on the platform: every webhook subscribed to the type gets it, signed.
    handler: async ({ account, request, settings }) => {
      const input = await validBody(request, emitInput);
      return {
        status: 201,
        body: { deliveries: await deliverEvent(account, settings, input.type, input.data) },
      };
    },
  },
  {
    method: 'POST',
    path: '/_emulator/call',
    // The agent's side of the loop: POST the arguments to the function's url, report the answer.
    handler: async (context) => {
      const { account, request, settings } = context;
      const input = await validBody(request, callInput);
      const fn = [...account.functions.values()].find((candidate) => candidate.name === input.name);
      if (!fn) {
        const names = [...account.functions.values()].map((candidate) => candidate.name);
        throw new EmulatorError(
          404,
          'unknown_function',
          `No custom function named "${input.name}" in this account. Registered: ${names.join(', ') || 'none yet (npm run dev registers every function of functions/; else npm run sync)'}.`,
        );
      }
      const conversation = conversationOf(context, input);
      const body = {
        ...input.arguments,
        [CONVERSATION_KEYS.contactId]: conversation.contactId,
        [CONVERSATION_KEYS.conversationId]: conversation.conversationId,
        [CONVERSATION_KEYS.channel]: conversation.channel,
      };
      const send = async () => {
        const { seq } = nextId(account, 'act');
        const startedAt = Date.now();
        const outcome = await postJson(fn.url, body, {
          secret: settings.functionSigningSecret,
          timeoutMs: input.deadlineMs ?? settings.answerDeadlineMs,
        });
        recordActivity(account, {
          kind: 'call',
          seq,
          startedAt,
          endedAt: Date.now(),
          name: fn.name,
          arguments: input.arguments,
          contactId: conversation.contactId,
          ...(outcome.requestId ? { requestId: outcome.requestId } : {}),
          url: outcome.url,
          status: outcome.status,
          durationMs: outcome.durationMs,
          body: (
            outcome.error ?? (typeof outcome.body === 'string' ? outcome.body : JSON.stringify(outcome.body))
          ).slice(0, 64 * 1024),
        });
        return outcome;
      };
      const first = send();
      let reissued: Promise<OutboundOutcome[]> | undefined;
      if (input.reissue) {
        const { afterMs, count } = input.reissue;
        reissued = wait(afterMs).then(() => Promise.all(Array.from({ length: count }, send)));
      }
      const outcome = await first;
      return {
        status: 200,
        body: { function: fn.name, ...outcome, conversation, ...(reissued ? { reissued: await reissued } : {}) },
      };
    },
  },
  {
    method: 'POST',
    path: '/_emulator/inbound',
    handler: async ({ account, request, settings }) => {
      const input = await validBody(request, inboundInput);
      const contact = found(account.contacts, input.contactId, 'contact');
      const { id, seq } = nextId(account, 'msg');
      const message = {
        id,
        seq,
        contactId: contact.id,
        channel: input.channel ?? contact.channel,
        text: input.text,
        direction: 'inbound' as const,
        status: 'received',
        createdAt: new Date().toISOString(),
      };
      account.messages.set(id, message);
      const deliveries = await deliverEvent(account, settings, 'message.received', messageReceivedData(message), {
        messageId: id,
      });
      return { status: 201, body: { message: messageShape(message), deliveries } };
    },
  },
];
