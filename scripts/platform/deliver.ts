// The platform's side of events: every webhook of the account subscribed to a type gets a POST
// signed with its own secret (a fresh timestamp and signature on every attempt), retried when it
// fails, and lost or sent twice when the fault switches say so (docs/platform-contract.md §7).
import { type OutboundOutcome, postJson } from './outbound.ts';
import type { RouteSettings } from './route.ts';
import { eventShape } from './shapes.ts';
import { type AccountState, type DeliveryActivity, nextId, recordActivity } from './state.ts';

/** What became of one event at one webhook: the last answer, how many POSTs it took, or why none. */
export type DeliveryReport =
  | { webhookId: string; eventId?: string; skipped: string }
  | (OutboundOutcome & { webhookId: string; eventId: string; attempts: number; delivered: boolean; duplicated?: true });

// Runtime-agnostic like the rest of the platform (it also runs in workerd tests): no node: imports.
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The event's id, the same at every webhook it went to. */
const eventIdOf = (reports: DeliveryReport[]): { eventId?: string } => {
  const eventId = reports.find((report) => report.eventId !== undefined)?.eventId;
  return eventId === undefined ? {} : { eventId };
};

const ok = (outcome: OutboundOutcome) => outcome.status !== null && outcome.status >= 200 && outcome.status < 300;

/** POSTs until a 2xx or the attempts run out, pausing longer each time. */
const attempt = async (
  url: string,
  event: unknown,
  secret: string,
  settings: RouteSettings,
): Promise<OutboundOutcome[]> => {
  const outcomes: OutboundOutcome[] = [];
  let delay = settings.deliveryRetryDelayMs;
  for (let i = 0; i < settings.deliveryAttempts; i++) {
    if (i > 0) {
      await sleep(delay);
      delay *= 2;
    }
    const outcome = await postJson(url, event, { secret, timeoutMs: settings.outboundTimeoutMs });
    outcomes.push(outcome);
    if (ok(outcome)) break;
  }
  return outcomes;
};

const objectOf = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/**
 * The contact an event is about, when its data names one: `contactId`, or the `contactId` (or a
 * contact's `id`) of one of its objects (`message`, `appointment`, `contact`, ...).
 * @example contactOf({ message: { contactId: 'ct_1' } }) // 'ct_1'
 */
export const contactOf = (data: unknown): string | undefined => {
  const top = objectOf(data);
  if (!top) return undefined;
  if (typeof top.contactId === 'string') return top.contactId;
  for (const [key, value] of Object.entries(top)) {
    const inner = objectOf(value);
    if (typeof inner?.contactId === 'string') return inner.contactId;
    if (key === 'contact' && typeof inner?.id === 'string') return inner.id;
  }
  return undefined;
};

const text = (body: unknown): string =>
  (typeof body === 'string' ? body : JSON.stringify(body ?? null)).slice(0, 64 * 1024);

/**
 * Delivers one event of `type` with `data` to every subscribed webhook of `account`, and keeps
 * what happened in the account's activity (the dev console shows it).
 * @example await deliverEvent(account, settings, 'appointment.booked', { appointment })
 */
export const deliverEvent = async (
  account: AccountState,
  settings: RouteSettings,
  type: string,
  data: unknown,
  cause: { messageId?: string } = {},
): Promise<DeliveryReport[]> => {
  const { seq } = nextId(account, 'act');
  const startedAt = Date.now();
  const reports = await deliverToWebhooks(account, settings, type, data);
  const record: DeliveryActivity = {
    kind: 'delivery',
    seq,
    startedAt,
    endedAt: Date.now(),
    type,
    contactId: contactOf(data),
    messageId: cause.messageId,
    ...eventIdOf(reports),
    deliveries: reports.map((report) =>
      'skipped' in report
        ? { webhookId: report.webhookId, skipped: report.skipped }
        : {
            webhookId: report.webhookId,
            url: report.url,
            status: report.status,
            attempts: report.attempts,
            delivered: report.delivered,
            durationMs: report.durationMs,
            body: report.error ?? text(report.body),
          },
    ),
  };
  recordActivity(account, record);
  return reports;
};

const deliverToWebhooks = (
  account: AccountState,
  settings: RouteSettings,
  type: string,
  data: unknown,
): Promise<DeliveryReport[]> => {
  const subscribed = [...account.webhooks.values()].filter((webhook) => webhook.events.includes(type));
  return Promise.all(
    subscribed.map(async (webhook): Promise<DeliveryReport> => {
      // Every delivery carries the signature headers (spec), so none goes out without a secret.
      if (!webhook.secret) return { webhookId: webhook.id, skipped: 'the webhook has no signing secret' };
      const event = eventShape(nextId(account, 'evt').id, type, account, data);
      const fault = settings.deliveryFault();
      if (fault === 'drop') return { webhookId: webhook.id, eventId: event.id, skipped: 'dropped (fault)' };
      const attempts = await attempt(webhook.url, event, webhook.secret, settings);
      if (fault === 'duplicate') attempts.push(...(await attempt(webhook.url, event, webhook.secret, settings)));
      const last = attempts.at(-1) as OutboundOutcome;
      return {
        webhookId: webhook.id,
        eventId: event.id,
        ...last,
        attempts: attempts.length,
        delivered: attempts.some(ok),
        ...(fault === 'duplicate' ? { duplicated: true as const } : {}),
      };
    }),
  );
};
