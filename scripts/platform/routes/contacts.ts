// GET and POST /v1/contacts.
import { contactInput } from 'agent-functions/platform';
import type { Route } from '../route.ts';
import { paginate, validBody } from '../route.ts';
import { contactShape, pageShape } from '../shapes.ts';
import { nextId } from '../state.ts';

export const contactRoutes: Route[] = [
  {
    method: 'GET',
    path: '/v1/contacts',
    handler: async ({ account, url, settings }) => {
      const { page, next } = paginate(account.contacts.values(), url, settings.pageSize);
      return { status: 200, body: pageShape(page.map(contactShape), next) };
    },
  },
  {
    method: 'POST',
    path: '/v1/contacts',
    handler: async ({ account, request }) => {
      const input = await validBody(request, contactInput);
      const { id, seq } = nextId(account, 'ct');
      const contact = { id, seq, ...input, createdAt: new Date().toISOString() };
      account.contacts.set(id, contact);
      return { status: 201, body: contactShape(contact) };
    },
  },
];
