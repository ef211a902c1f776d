// Emulator-only endpoints under /_emulator/ (not the platform's API): playing the agent, and an
// inbound customer message that triggers signed `message.received` deliveries.
import { z } from 'zod';
import { FUNCTION_NAME } from '../../../src/platform/function.ts';
import { EmulatorError } from '../http.ts';
import { postJson } from '../outbound.ts';
import type { Route } from '../route.ts';
import { found, validBody } from '../route.ts';
import { deliveryShape, messageShape } from '../shapes.ts';
import { nextId } from '../state.ts';

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

export const emulatorRoutes: Route[] = [
  {
    method: 'POST',
    path: '/_emulator/call',
    // The agent's side of the loop: POST the arguments to the function's url, report the answer.
    handler: async ({ account, request, settings }) => {
      const input = await validBody(request, callInput);
      const fn = [...account.functions.values()].find((candidate) => candidate.name === input.name);
      if (!fn) {
        const names = [...account.functions.values()].map((candidate) => candidate.name);
        throw new EmulatorError(
          404,
          'unknown_function',
          `No custom function named "${input.name}" in this account. Registered: ${names.join(', ') || 'none (run npm run sync first)'}.`,
        );
      }
      const outcome = await postJson(fn.url, input.arguments, {
        secret: settings.functionSigningSecret,
        timeoutMs: settings.outboundTimeoutMs,
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
      const { id } = nextId(state, 'msg');
      const message = {
        id,
        contactId: contact.id,
        channel: input.channel ?? contact.channel,
        text: input.text,
        direction: 'inbound' as const,
        status: 'received',
        createdAt: new Date().toISOString(),
      };
      account.messages.set(id, message);
      const subscribed = [...account.webhooks.values()].filter((webhook) =>
        webhook.events.includes('message.received'),
      );
      const deliveries = await Promise.all(
        subscribed.map(async (webhook) => {
          // Every delivery carries the signature headers (spec), so none goes out without a secret.
          if (!webhook.secret) return { webhookId: webhook.id, skipped: 'the webhook has no signing secret' };
          const event = deliveryShape(nextId(state, 'evt').id, account, message);
          const outcome = await postJson(webhook.url, event, {
            secret: webhook.secret,
            timeoutMs: settings.outboundTimeoutMs,
          });
          return { webhookId: webhook.id, eventId: event.id, ...outcome };
        }),
      );
      return { status: 201, body: { message: messageShape(message), deliveries } };
    },
  },
];
