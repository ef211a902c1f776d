// The events webhook as sync sees it: one per account, its url the Worker's events endpoint, its
// events the files in events/. It rides on the functions' plan and apply (rounds, fresh lists
// before any retry, ownership by url) as one record named `events webhook`, whose parameter map
// holds the event types, so a changed set shows as `+ type` / `- type` lines.
import type { PlatformClient } from '../../src/platform/client.ts';
import { EVENTS_PATH } from '../../src/platform/contract.ts';
import type { FunctionRecord, RemoteFunction } from '../../src/platform/function.ts';
import { normalizeOrigin } from '../../src/url.ts';
import type { FunctionsApi } from './apply.ts';

/** How the webhook appears in plans and reports. */
export const WEBHOOK_NAME = 'events webhook';
const DESCRIPTION = 'the project webhook';

/** The url the platform delivers events to (CONTRACT section 7: ours when it is exactly this). */
export const eventsUrl = (origin: string): string => `${normalizeOrigin(origin)}${EVENTS_PATH}`;

const asRecord = (url: string, events: string[]) => ({
  name: WEBHOOK_NAME,
  description: DESCRIPTION,
  url,
  // 'event' is not a parameter type: it only labels each type in plans (`+ appointment.booked (event)`).
  parameters: Object.fromEntries(
    [...events].sort().map((type) => [type, 'event']),
  ) as unknown as FunctionRecord['parameters'],
});

/**
 * The webhook the account should hold: none when events/ is empty (then --prune removes ours).
 * @example desiredWebhook('https://fns.example.dev', ['appointment.booked'])
 */
export const desiredWebhook = (origin: string, types: readonly string[]): FunctionRecord[] =>
  types.length > 0 ? [asRecord(eventsUrl(origin), [...types])] : [];

/**
 * The account's webhooks as sync's API: only ours are listed, so nothing else can be touched.
 * @example syncAccount({ api: webhookApi(client.webhooks, origin), desired: desiredWebhook(origin, types), ... })
 */
export const webhookApi = (webhooks: PlatformClient['webhooks'], origin: string): FunctionsApi => ({
  list: async (): Promise<RemoteFunction[]> =>
    (await webhooks.list())
      .filter((webhook) => normalizeOrigin(webhook.url) === eventsUrl(origin))
      .map((webhook) => ({ id: webhook.id, ...asRecord(webhook.url, webhook.events) })),
  create: (input) => webhooks.create({ url: input.url, events: Object.keys(input.parameters) }),
  update: (id, input) =>
    webhooks.update(id, {
      ...(input.url ? { url: input.url } : {}),
      ...(input.parameters ? { events: Object.keys(input.parameters) } : {}),
    }),
  delete: (id) => webhooks.delete(id),
});
