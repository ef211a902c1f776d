// Running a project's event handlers inside workerd: a queued delivery, the consumer over a batch
// (the queue's own verdict per message), and a signed delivery to an events endpoint.
import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import type { AccountsService } from '../accounts/resolve.ts';
import { createWorker } from '../createWorker.ts';
import type { Env } from '../env.ts';
import type { AnyEventDefinition } from '../events/define.ts';
import type { QueuedDelivery } from '../events/delivery.ts';
import { forgetSigningSecrets } from '../events/secrets.ts';
import { type EventsService, serveEvents } from '../events/serve.ts';
import { setLogSink } from '../log.ts';
import { webhookHeaders } from '../platform/protocol/signature.ts';
import { ORIGIN } from './call.ts';

/** Forgets the signing secrets the Worker read from the platform, so a test starts cold. */
export { forgetSigningSecrets };

/** Where the first account's webhook delivers in tests. */
export const EVENTS_URL: string = `${ORIGIN}/events`;

let sequence = 0;

/**
 * A delivery of `type` with `data` as the endpoint queues it, under a fresh platform id unless `id` is given.
 * @example await consume([queued('appointment.booked', { appointment })])
 */
export const queued = (type: string, data: unknown, id = `evt_${Date.now()}_${++sequence}`): QueuedDelivery => ({
  type,
  deliveryId: `id:${id}`,
  body: JSON.stringify({ id, type, data }),
  receivedAt: Date.now(),
});

/**
 * A delivery POSTed to `url`, signed with `secret` at `now` (ms) as the platform signs it.
 * @example await worker.fetch(await signedDelivery({ type: 'message.received', data }, 'whsec_1'))
 */
export const signedDelivery = async (
  body: unknown,
  secret: string | undefined,
  now: number = Date.now(),
  url: string = EVENTS_URL,
): Promise<Request> => {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (secret) Object.assign(headers, await webhookHeaders(secret, raw, now));
  return new Request(url, { method: 'POST', headers, body: raw });
};

/** The queue's verdict on each message of one consumed batch, and the delay of each retry. */
export type ConsumeResult = Awaited<ReturnType<typeof getQueueResult>> & {
  delays: Record<string, number | undefined>;
};

/** A Worker serving only events, with the consumer run on demand. */
export interface EventsWorker {
  events: EventsService;
  fetch(request: Request, environment?: Env): Promise<Response>;
  /** Runs the consumer on `deliveries` as one batch, `attempts` each. */
  consume(deliveries: QueuedDelivery[], environment?: Env, attempts?: number): Promise<ConsumeResult>;
  /** `consume`, also returning the names of the log lines the run wrote. */
  consumeLogged(deliveries: QueuedDelivery[], environment?: Env): Promise<{ result: ConsumeResult; logged: string[] }>;
}

/**
 * A Worker serving `definitions` (or the project's generated events registry) as its events, and no
 * functions, over `accounts` (createWorker's option; one account, "default", without it).
 * @example const worker = eventsWorker(events); await worker.consume([queued('message.received', data)])
 */
export const eventsWorker = (
  definitions: Record<string, AnyEventDefinition> | EventsService,
  defaultEnv: () => Env = () => env as Env,
  accounts?: AccountsService,
): EventsWorker => {
  const events = 'serve' in definitions ? (definitions as EventsService) : serveEvents(definitions);
  const worker = createWorker({ functions: {}, events, ...(accounts ? { accounts } : {}) });
  const queue = worker.queue as NonNullable<typeof worker.queue>;
  const consume: EventsWorker['consume'] = async (deliveries, environment = defaultEnv(), attempts = 1) => {
    const batch = createMessageBatch(
      'agent-functions-events',
      deliveries.map((body, i) => ({ id: `msg-${i}`, timestamp: new Date(), attempts, body })),
    );
    // getQueueResult does not report a retry's delay: record it on the way through.
    const delays: Record<string, number | undefined> = {};
    for (const message of batch.messages) {
      const retry = message.retry.bind(message);
      message.retry = (options) => {
        delays[message.id] = options?.delaySeconds;
        retry(options);
      };
    }
    const ctx = createExecutionContext();
    await queue(batch, environment, ctx);
    return { ...(await getQueueResult(batch, ctx)), delays };
  };
  return {
    events,
    fetch: (request, environment = defaultEnv()) => worker.fetch(request, environment, createExecutionContext()),
    consume,
    consumeLogged: async (deliveries, environment = defaultEnv()) => {
      const logged: string[] = [];
      const previous = setLogSink((line) => logged.push((JSON.parse(line) as { event: string }).event));
      try {
        return { result: await consume(deliveries, environment), logged };
      } finally {
        setLogSink(previous);
      }
    },
  };
};
