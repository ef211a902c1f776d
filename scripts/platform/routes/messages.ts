// POST /v1/messages: only to an existing contact, only through a connected channel.
import { messageInput } from 'agent-functions/platform';
import { EmulatorError } from '../http.ts';
import type { Route } from '../route.ts';
import { paginate, validBody } from '../route.ts';
import { messageShape, pageShape } from '../shapes.ts';
import { nextId } from '../state.ts';

export const messageRoutes: Route[] = [
  {
    method: 'GET',
    path: '/v1/messages',
    // The emulator's own (docs/local-development.md): the spec lets a client "read messages" but
    // shows no route, so this is for looking at what functions and handlers sent, not for code to
    // rely on. Pages like every list, oldest first; ?contactId= keeps one contact's.
    handler: async ({ account, url, settings }) => {
      const contactId = url.searchParams.get('contactId');
      const messages = [...account.messages.values()].filter(
        (message) => contactId === null || message.contactId === contactId,
      );
      const { page, next } = paginate(messages, url, settings.pageSize);
      return { status: 200, body: pageShape(page.map(messageShape), next) };
    },
  },
  {
    method: 'POST',
    path: '/v1/messages',
    handler: async ({ account, request }) => {
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
      const { id, seq } = nextId(account, 'msg');
      const message = {
        id,
        seq,
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
