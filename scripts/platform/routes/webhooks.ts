// /v1/webhooks: create (spec), list, update and delete (docs/platform-contract.md §7, A), and the
// signing-secret sub-resource (read, mint or rotate, delete).
import { webhookInput, webhookUpdate } from 'agent-functions/platform';
import { EmulatorError } from '../http.ts';
import type { Route } from '../route.ts';
import { found, paginate, validBody } from '../route.ts';
import { deletedShape, pageShape, signingSecretShape, webhookShape } from '../shapes.ts';
import { mintSecret, nextId } from '../state.ts';

const SECRET_PATH = '/v1/webhooks/:id/signing-secret';

export const webhookRoutes: Route[] = [
  {
    method: 'GET',
    path: '/v1/webhooks',
    handler: async ({ account, url, settings }) => {
      const { page, next } = paginate(account.webhooks.values(), url, settings.pageSize);
      return { status: 200, body: pageShape(page.map(webhookShape), next) };
    },
  },
  {
    method: 'PATCH',
    path: '/v1/webhooks/:id',
    handler: async ({ account, request, params }) => {
      const webhook = found(account.webhooks, params.id, 'webhook');
      Object.assign(webhook, await validBody(request, webhookUpdate));
      return { status: 200, body: webhookShape(webhook) };
    },
  },
  {
    method: 'DELETE',
    path: '/v1/webhooks/:id',
    handler: async ({ account, params }) => {
      const webhook = found(account.webhooks, params.id, 'webhook');
      account.webhooks.delete(webhook.id);
      return { status: 200, body: deletedShape(webhook.id) };
    },
  },
  {
    method: 'POST',
    path: '/v1/webhooks',
    handler: async ({ account, request }) => {
      const input = await validBody(request, webhookInput);
      const { id, seq } = nextId(account, 'wh');
      const now = new Date().toISOString();
      // Every webhook has a signing secret from the start (spec: "Each webhook has a signing secret").
      const webhook = {
        id,
        seq,
        url: input.url,
        events: input.events,
        secret: mintSecret(),
        secretCreatedAt: now,
        createdAt: now,
      };
      account.webhooks.set(id, webhook);
      return { status: 201, body: webhookShape(webhook) };
    },
  },
  {
    method: 'GET',
    path: SECRET_PATH,
    handler: async ({ account, params }) => {
      const webhook = found(account.webhooks, params.id, 'webhook');
      if (!webhook.secret) {
        throw new EmulatorError(404, 'no_signing_secret', 'This webhook has no signing secret: mint one with POST.');
      }
      return { status: 200, body: signingSecretShape(webhook) };
    },
  },
  {
    method: 'POST',
    path: SECRET_PATH,
    handler: async ({ account, params }) => {
      const webhook = found(account.webhooks, params.id, 'webhook');
      webhook.secret = mintSecret();
      webhook.secretCreatedAt = new Date().toISOString();
      return { status: 201, body: signingSecretShape(webhook) };
    },
  },
  {
    method: 'DELETE',
    path: SECRET_PATH,
    handler: async ({ account, params }) => {
      const webhook = found(account.webhooks, params.id, 'webhook');
      if (!webhook.secret) throw new EmulatorError(404, 'no_signing_secret', 'This webhook has no signing secret.');
      webhook.secret = undefined;
      webhook.secretCreatedAt = undefined;
      return { status: 200, body: deletedShape(webhook.id) };
    },
  },
];
