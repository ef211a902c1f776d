// What the examples' tests share: the Worker called with a chosen env, and the local platform as a
// test double (agent-functions-cli/platform) holding the contacts, messages and webhook they use.
import { env } from 'cloudflare:workers';
import type { Env } from 'agent-functions';
import { serveAccounts } from 'agent-functions/accounts';
import type { EventsService } from 'agent-functions/events';
import { EVENTS_URL, eventsWorker, mockOutbound, type Outbound, queued, withEnv } from 'agent-functions/testing';
import {
  contactsOf,
  messagesOf,
  PLATFORM_KEY,
  PLATFORM_URL,
  seedContact,
  usePlatform,
} from 'agent-functions-cli/platform';
import { accounts } from '../generated/accounts.ts';
import { events as generated } from '../generated/events.ts';
import worker from '../worker.ts';

/**
 * The first account of platform.accounts.json (generated/accounts.ts), whatever it is named
 * (`default`, or the docs' `agency`): a call through its urls, which carry no account, acts in it,
 * so what a test reads or seeds for such a call is kept under this name.
 */
export const FIRST_ACCOUNT: { readonly name: string } = { name: accounts.list[0]?.name ?? 'default' };

/** The test env with the platform double and the team inbox of handoff_to_human; `extra` overrides. */
export const platformEnv = (extra: Partial<Env> & Record<string, unknown> = {}): Env => ({
  ...(env as Env),
  PLATFORM_BASE_URL: PLATFORM_URL,
  PLATFORM_API_KEY: PLATFORM_KEY,
  HANDOFF_CONTACT_ID: 'ct_team',
  ...extra,
});

/** Calls a function through worker.ts as the platform would, with `environment`. */
export const callWith = (name: string, args: unknown, environment: Env = platformEnv()): Promise<Response> =>
  withEnv(worker, environment).call(name, args);

/** The platform's side of the events: messages and contacts, plus one webhook whose secret can be rotated. */
export const eventsPlatform = (outbound: Outbound = mockOutbound()) => {
  const platform = usePlatform(outbound);
  // The examples message contacts a real account would hold; the double holds them once asked.
  outbound.on('POST', `${PLATFORM_URL}/v1/messages`, async (request) => {
    const { contactId } = (await request.clone().json()) as { contactId: string };
    if (!contactsOf(platform).some((contact) => contact.id === contactId)) {
      seedContact(platform, { id: contactId, name: 'Customer', phone: '+447700900000', channel: 'whatsapp' });
    }
    return platform.fetch(request);
  });
  const webhook = { id: 'wh_1', url: EVENTS_URL, events: ['appointment.booked', 'message.received'] };
  const secret = 'whsec_first';
  outbound
    .on('GET', `${PLATFORM_URL}/v1/webhooks`, () => Response.json({ data: [webhook] }))
    .on('GET', `${PLATFORM_URL}/v1/webhooks/wh_1/signing-secret`, () => Response.json({ webhookId: 'wh_1', secret }));
  return {
    outbound,
    secret,
    get messages() {
      return messagesOf(platform);
    },
  };
};

/**
 * The project's own events (generated/events.ts) served by a Worker of their own over the project's
 * accounts (generated/accounts.ts, as worker.ts serves them), with the platform env: a delivery to
 * /events or queued without an account acts in FIRST_ACCOUNT, whatever it is named.
 */
export const servedEvents = () => {
  if (!generated) throw new Error('events/ has no files, so there is nothing to serve');
  return { ...eventsWorker(generated as EventsService, () => platformEnv(), serveAccounts(accounts)), queued };
};
