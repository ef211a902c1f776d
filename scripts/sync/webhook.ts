// The events webhook as sync sees it: one per account, its url that account's events endpoint
// (eventsPathOf: /events for the first account, /events/<name> for the others), its events the
// files in events/. It rides on the functions' plan and apply (rounds, fresh lists before any
// retry, ownership by url) as one record named `events webhook`, whose parameter map holds the
// event types, so a changed set shows as `+ type` / `- type` lines.
import type { FunctionRecord, PlatformClient, RemoteFunction } from 'agent-functions/platform';
import { eventsPathOf, eventsPathPattern } from 'agent-functions/platform';
import { normalizeOrigin } from 'agent-functions/worker';
import type { FunctionsApi } from './apply.ts';

/** How the webhook appears in plans and reports. */
export const WEBHOOK_NAME = 'events webhook';
const DESCRIPTION = 'the project webhook';

/** The url the platform delivers one account's events to (docs/platform-contract.md §7: ours when it is exactly this). */
export const eventsUrl = (origin: string, path: string): string => `${normalizeOrigin(origin)}${path}`;

/**
 * Whether `url` is one of the project's events endpoints under one of `origins`: any account's, or
 * with `account` only that account's own (`/events/<account>`) and the first account's `/events`
 * (where it was, or will be, when it changes place), never another account's.
 */
const isEventsUrl = (url: string, origins: readonly string[], account?: string): boolean => {
  const target = normalizeOrigin(url);
  return origins.some((origin) => {
    const base = normalizeOrigin(origin);
    if (!target.startsWith(`${base}/`)) return false;
    const path = target.slice(base.length);
    return account === undefined
      ? eventsPathPattern().test(path)
      : path === eventsPathOf(account, true) || path === eventsPathOf(account, false);
  });
};

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
 * The webhook the account should hold at its events path: none when events/ is empty (then
 * --prune removes ours).
 * @example desiredWebhook('https://fns.example.dev', '/events', ['appointment.booked'])
 */
export const desiredWebhook = (origin: string, path: string, types: readonly string[]): FunctionRecord[] =>
  types.length > 0 ? [asRecord(eventsUrl(origin, path), [...types])] : [];

/**
 * The account's webhooks as sync's API: only ours are listed (an events endpoint of this origin or
 * of one being adopted, at `/events` or the account's own path, so a moved path is updated, not
 * doubled; another account's path is left alone), so nothing else can be touched.
 * @example syncAccount({ api: webhookApi(client.webhooks, [origin], 'client-acme'), desired: desiredWebhook(origin, path, types), ... })
 */
export const webhookApi = (
  webhooks: PlatformClient['webhooks'],
  origins: readonly string[],
  account?: string,
): FunctionsApi => ({
  list: async (): Promise<RemoteFunction[]> =>
    (await webhooks.list())
      .filter((webhook) => isEventsUrl(webhook.url, origins, account))
      .map((webhook) => ({ id: webhook.id, ...asRecord(webhook.url, webhook.events) })),
  create: (input) => webhooks.create({ url: input.url, events: Object.keys(input.parameters) }),
  update: (id, input) =>
    webhooks.update(id, {
      ...(input.url ? { url: input.url } : {}),
      ...(input.parameters ? { events: Object.keys(input.parameters) } : {}),
    }),
  delete: (id) => webhooks.delete(id),
});
