// POST /v1/messages: only to an existing contact, only through a connected channel.
import { messageInput } from 'agent-functions/platform';
import { EmulatorError } from '../http.ts';
import type { Route } from '../route.ts';
import { validBody } from '../route.ts';
import { messageShape } from '../shapes.ts';
import { nextId } from '../state.ts';

export const messageRoutes: Route[] = [
  {
    method: 'POST',
    path: '/v1/messages',
    handler: async ({ state, account, request }) => {
      const input = await validBody(request, messageInput);
      if (!account.channels.includes(input.channel)) {
        throw new EmulatorError(
          422,
          'channel_not_connected',
          `The channel "${input.channel.slice(0, 40)}" is not connected to this account. Connected channels: ${account.channels.join(', ') || 'none'}.`,
        );
      }
      if (!account.contacts.has(input.contactId)) {
        throw new EmulatorError(
          422,
          'unknown_contact',
          `contactId "${input.contactId.slice(0, 80)}" is not a contact of this account: create the contact first.`,
        );
      }
      const { id } = nextId(state, 'msg');
      const message = {
        id,
        ...input,
        direction: 'outbound' as const,
        status: 'sent',
        createdAt: new Date().toISOString(),
      };
      account.messages.set(id, message);
      return { status: 201, body: messageShape(message) };
    },
  },
];
