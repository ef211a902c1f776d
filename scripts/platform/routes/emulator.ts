// Emulator-only endpoints under /_emulator/ (not the platform's API): playing the agent, and an
// inbound customer message that triggers signed `message.received` deliveries, and any event emitted.

import { EVENT_NAME, FUNCTION_NAME } from 'agent-functions/platform';
import { z } from 'zod';
import { deliverEvent } from '../deliver.ts';
import { EmulatorError } from '../http.ts';
import { postJson } from '../outbound.ts';
import type { Route } from '../route.ts';
import { found, validBody } from '../route.ts';
import { messageReceivedData, messageShape } from '../shapes.ts';
import { nextId, recordActivity } from '../state.ts';
import { activityShape } from './activity.ts';

const callInput = z.object({
  name: z.string({ error: 'name is required: the registered function to call' }).regex(FUNCTION_NAME, {
    error: 'name must be a registered function name',
  }),
  arguments: z.record(z.string(), z.unknown(), { error: 'arguments must be a JSON object' }).default({}),
});

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
    handler: async ({ state, account, request, settings }) => {
      const input = await validBody(request, emitInput);
      return {
        status: 201,
        body: { deliveries: await deliverEvent(state, account, settings, input.type, input.data) },
      };
    },
  },
  {
    method: 'POST',
    path: '/_emulator/call',
    // The agent's side of the loop: POST the arguments to the function's url, report the answer.
    handler: async ({ state, account, request, settings }) => {
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
      const { seq } = nextId(state, 'act');
      const startedAt = Date.now();
      const outcome = await postJson(fn.url, input.arguments, {
        secret: settings.functionSigningSecret,
        timeoutMs: settings.outboundTimeoutMs,
      });
      recordActivity(account, {
        kind: 'call',
        seq,
        startedAt,
        endedAt: Date.now(),
        name: fn.name,
        arguments: input.arguments,
        url: outcome.url,
        status: outcome.status,
        durationMs: outcome.durationMs,
        body: (outcome.error ?? (typeof outcome.body === 'string' ? outcome.body : JSON.stringify(outcome.body))).slice(
          0,
          64 * 1024,
        ),
      });
      return { status: 200, body: { function: fn.name, ...outcome } };
    },
  },
  {
    method: 'POST',
    path: '/_emulator/inbound',
    handler: async ({ state, account, request, settings }) => {
      const input = await validBody(request, inboundInput);
      const contact = found(account.contacts, input.contactId, 'contact');
      const { id, seq } = nextId(state, 'msg');
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
      const deliveries = await deliverEvent(
        state,
        account,
        settings,
        'message.received',
        messageReceivedData(message),
        {
          messageId: id,
        },
      );
      return { status: 201, body: { message: messageShape(message), deliveries } };
    },
  },
];
