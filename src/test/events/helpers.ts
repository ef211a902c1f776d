// What the events tests share: a platform on the outbound mock that holds one webhook and its
// signing secret (and rotates it), signed deliveries, and a Worker serving chosen event handlers.
import { env } from 'cloudflare:workers';
import {
  contactsOf,
  messagesOf,
  PLATFORM_URL as PLATFORM,
  seedContact,
  usePlatform,
} from 'agent-functions-cli/platform';
import type { AccountsService } from '../../accounts/resolve.ts';
import type { AnyEventDefinition } from '../../events/define.ts';
import type { EventsEnv } from '../../events/env.ts';
import type { EventsService } from '../../events/serve.ts';
import {
  EVENTS_URL,
  type EventsWorker,
  forgetSigningSecrets,
  queued,
  eventsWorker as servingEvents,
  signedDelivery,
} from '../../testing/index.ts';
import { mockOutbound, type Outbound } from '../../testing/outbound.ts';

export { EVENTS_URL };

/** The platform's side: messages and contacts, plus one webhook whose secret can be rotated. */
export const eventsPlatform = (outbound: Outbound = mockOutbound()) => {
  const platform = usePlatform(outbound);
  // The examples message contacts a real account would hold; the emulator holds them once asked.
  const applyMessage = async (request: Request) => {
    const { contactId } = (await request.clone().json()) as { contactId: string };
    if (!contactsOf(platform).some((contact) => contact.id === contactId)) {
      seedContact(platform, { id: contactId, name: 'Customer', phone: '+447700900000', channel: 'whatsapp' });
    }
    return platform.fetch(request);
  };
  outbound.on('POST', `${PLATFORM}/v1/messages`, applyMessage);
  const messages = {
    get messages() {
      return messagesOf(platform);
    },
  };
  const webhook = { id: 'wh_1', url: EVENTS_URL, events: ['appointment.booked', 'message.received'] };
  let secret: string | undefined = 'whsec_first';
  let hasWebhook = true;
  /** What the platform answers instead of the webhooks: a status (401 key refused, 503 down), or a wait first. */
  let failure: number | undefined;
  let delayMs = 0;
  let secretReads = 0;
  let listReads = 0;
  const answer = async (make: () => Response) => {
    if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (failure) return Response.json({ error: { code: 'failure', message: 'injected' } }, { status: failure });
    return make();
  };
  outbound
    .on('GET', `${PLATFORM}/v1/webhooks`, () => {
      listReads++;
      return answer(() =>
        Response.json({
          data: [
            ...(hasWebhook ? [webhook] : []),
            { id: 'wh_other', url: 'https://elsewhere.example.com/hook', events: [] },
          ],
        }),
      );
    })
    .on('GET', `${PLATFORM}/v1/webhooks/wh_1/signing-secret`, () => {
      secretReads++;
      return answer(() =>
        secret === undefined
          ? Response.json({ error: { code: 'not_found', message: 'No signing secret.' } }, { status: 404 })
          : Response.json({ webhookId: 'wh_1', secret }),
      );
    });
  return {
    outbound,
    messages,
    /** Applies a POST /v1/messages on the platform (the message is stored), whatever the test then answers. */
    applyMessage,
    /** The secret the platform signs with now ('' once deleted). */
    get secret(): string {
      return secret ?? '';
    },
    /** How often the Worker read the secret from the platform. */
    get secretReads() {
      return secretReads;
    },
    /** How often the Worker listed the webhooks. */
    get listReads() {
      return listReads;
    },
    /** POST .../signing-secret: from now on the platform signs with a new secret only. */
    rotate(next: string) {
      secret = next;
    },
    /** DELETE .../signing-secret: the webhook has no secret (its reads answer 404). */
    deleteSecret() {
      secret = undefined;
    },
    /** DELETE /v1/webhooks/wh_1: the list no longer holds it. */
    deleteWebhook() {
      hasWebhook = false;
    },
    /** Every webhook request answers this status (401: the key is refused; 503: the platform is down), or again normally. */
    fail(status: number | undefined) {
      failure = status;
    },
    /** Every webhook request waits this long first. */
    slow(ms: number) {
      delayMs = ms;
    },
  };
};

/** The test env with the platform's address and key. */
export const eventsEnv = (extra: Partial<EventsEnv> = {}): EventsEnv => ({
  ...(env as EventsEnv),
  PLATFORM_BASE_URL: PLATFORM,
  PLATFORM_API_KEY: 'test-platform-key',
  ...extra,
});

/** A delivery POSTed to the events endpoint, signed with `secret` at `now` (ms). */
export const delivery = (body: unknown, secret: string | undefined, now = Date.now()): Promise<Request> =>
  signedDelivery(body, secret, now, EVENTS_URL);

/** A Worker serving `definitions` (or an already served registry) as its events, and no functions. */
export const eventsWorker = (
  definitions: Record<string, AnyEventDefinition> | EventsService,
  accounts?: AccountsService,
): EventsWorker => servingEvents(definitions, () => eventsEnv(), accounts);

export { forgetSigningSecrets, queued };
