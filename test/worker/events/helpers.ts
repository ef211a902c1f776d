// What the events tests share: a platform on the outbound mock that holds one webhook and its
// signing secret (and rotates it), signed deliveries, and a Worker serving chosen event handlers.
import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { events as generated } from '../../../generated/events.ts';
import type { Env } from '../../../src/env.ts';
import { setLogSink } from '../../../src/log.ts';
import { webhookHeaders } from '../../../src/platform/signature.ts';
import type { AnyEventDefinition } from '../../../src/webhook/define.ts';
import type { QueuedDelivery } from '../../../src/webhook/delivery.ts';
import { forgetSigningSecrets } from '../../../src/webhook/secrets.ts';
import { type EventsService, serveEvents } from '../../../src/webhook/serve.ts';
import { createWorker } from '../../../src/worker.ts';
import { contactsOf, messagesOf, PLATFORM, seedContact, usePlatform } from '../emulator.ts';
import { ORIGIN } from '../helpers.ts';
import { mockOutbound, type Outbound } from '../outbound.ts';

export const EVENTS_URL = `${ORIGIN}/events`;

/** The platform's side: messages and contacts, plus one webhook whose secret can be rotated. */
export const eventsPlatform = (outbound: Outbound = mockOutbound()) => {
  const platform = usePlatform(outbound);
  // The examples message contacts a real account would hold; the emulator holds them once asked.
  outbound.on('POST', `${PLATFORM}/v1/messages`, async (request) => {
    const { contactId } = (await request.clone().json()) as { contactId: string };
    if (!contactsOf(platform).some((contact) => contact.id === contactId)) {
      seedContact(platform, { id: contactId, name: 'Customer', phone: '+447700900000', channel: 'whatsapp' });
    }
    return platform.fetch(request);
  });
  const messages = {
    get messages() {
      return messagesOf(platform);
    },
  };
  const webhook = { id: 'wh_1', url: EVENTS_URL, events: ['appointment.booked', 'message.received'] };
  let secret = 'whsec_first';
  let secretReads = 0;
  outbound
    .on('GET', `${PLATFORM}/v1/webhooks`, () =>
      Response.json({ data: [webhook, { id: 'wh_other', url: 'https://elsewhere.example.com/hook', events: [] }] }),
    )
    .on('GET', `${PLATFORM}/v1/webhooks/wh_1/signing-secret`, () => {
      secretReads++;
      return Response.json({ webhookId: 'wh_1', secret });
    });
  return {
    outbound,
    messages,
    get secret() {
      return secret;
    },
    /** How often the Worker read the secret from the platform. */
    get secretReads() {
      return secretReads;
    },
    /** POST .../signing-secret: from now on the platform signs with a new secret only. */
    rotate(next: string) {
      secret = next;
    },
  };
};

/** The test env with the platform's address and key. */
export const eventsEnv = (extra: Partial<Env> = {}): Env => ({
  ...(env as Env),
  PLATFORM_BASE_URL: PLATFORM,
  PLATFORM_API_KEY: 'test-platform-key',
  ...extra,
});

/** A delivery POSTed to the events endpoint, signed with `secret` at `now` (ms). */
export const delivery = async (body: unknown, secret: string | undefined, now = Date.now()) => {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (secret) Object.assign(headers, await webhookHeaders(secret, raw, now));
  return new Request(EVENTS_URL, { method: 'POST', headers, body: raw });
};

/** A Worker serving `definitions` (or an already served registry) as its events, and no functions. */
export const eventsWorker = (definitions: Record<string, AnyEventDefinition> | EventsService) => {
  const events = 'queue' in definitions ? (definitions as EventsService) : serveEvents(definitions);
  const worker = createWorker({ functions: {}, events });
  return {
    events,
    fetch: (request: Request, environment = eventsEnv()) =>
      worker.fetch(request, environment, createExecutionContext()),
    /** Runs the consumer on `deliveries` as one batch, `attempts` each; the queue's verdict per message. */
    consume: async (deliveries: QueuedDelivery[], environment = eventsEnv(), attempts = 1) => {
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
      await events.queue(batch, environment, ctx);
      return { ...(await getQueueResult(batch, ctx)), delays };
    },
  };
};

let sequence = 0;

/** A queued delivery of `type` with `data`, under a fresh platform id unless `id` is given. */
export const queued = (type: string, data: unknown, id = `evt_${Date.now()}_${++sequence}`): QueuedDelivery => ({
  type,
  deliveryId: `id:${id}`,
  body: JSON.stringify({ id, type, data }),
  receivedAt: Date.now(),
});

export { forgetSigningSecrets };

/**
 * The project's own events (the generated registry from events/), with `consumeLogged`, which also
 * returns the names of the log lines the run wrote.
 */
export const servedEvents = () => {
  if (!generated) throw new Error('events/ has no files, so there is nothing to serve');
  const worker = eventsWorker(generated);
  return {
    ...worker,
    queued,
    consumeLogged: async (deliveries: QueuedDelivery[], environment = eventsEnv()) => {
      const logged: string[] = [];
      const previous = setLogSink((line) => logged.push((JSON.parse(line) as { event: string }).event));
      try {
        return { result: await worker.consume(deliveries, environment), logged };
      } finally {
        setLogSink(previous);
      }
    },
  };
};
