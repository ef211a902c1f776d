// Several accounts (platform.accounts.json): each account's webhook delivers to its own path, and a
// delivery there verifies only with that account's signing secret, read with that account's key,
// each account resolved by the Worker's one resolver (createWorker's accounts option).
// The local platform (two accounts) runs on the outbound mock and delivers to this Worker itself.
import { env } from 'cloudflare:workers';
import { createPlatform, PLATFORM_URL as PLATFORM, type Platform } from 'agent-functions-cli/platform';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AccountEntry } from '../../accounts/resolve.ts';
import { serveAccounts } from '../../accounts/serve.ts';
import type { Env } from '../../env.ts';
import { defineEvent } from '../../events/define.ts';
import type { QueuedDelivery } from '../../events/delivery.ts';
import { serveEvents } from '../../events/serve.ts';
import { mockOutbound, type Outbound } from '../../testing/outbound.ts';
import { errorOf, ORIGIN } from '../helpers.ts';
import { delivery, eventsWorker, forgetSigningSecrets, queued as queuedDelivery } from './helpers.ts';

const KEYS = { agency: 'key-agency', acme: 'key-acme' };

/** What generate writes for an accounts file listing "agency" first and "client-acme" second. */
const ACCOUNTS: AccountEntry[] = [
  { name: 'agency', apiKeyEnv: 'PLATFORM_API_KEY', baseUrlEnv: 'PLATFORM_BASE_URL' },
  { name: 'client-acme', apiKeyEnv: 'ACME_PLATFORM_API_KEY', baseUrl: PLATFORM },
];

/** What each handler run saw: its account, and how many contacts its platform client listed. */
const runs: Array<{ account: string | undefined; contacts: number }> = [];
const worker = eventsWorker(
  serveEvents({
    'deal.moved': defineEvent({ type: 'deal.moved', payload: z.looseObject({}), handler: () => {} }),
    'contact.created': defineEvent({
      type: 'contact.created',
      payload: z.looseObject({}),
      handler: async (_, { account, platform }) => {
        runs.push({ account, contacts: (await platform.contacts.list()).length });
      },
    }),
  }),
  serveAccounts({ list: ACCOUNTS }),
);

describe('events from several accounts', () => {
  let outbound: Outbound;
  let platform: Platform;
  let queued: QueuedDelivery[];
  let workerEnv: Env;

  /** A platform API call as the account holding `key`. */
  const api = async (key: string, method: string, path: string, body?: unknown) =>
    (
      await platform.fetch(
        new Request(`${PLATFORM}${path}`, {
          method,
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
      )
    ).json() as Promise<Record<string, unknown>>;

  const subscribe = (key: string, path: string) =>
    api(key, 'POST', '/v1/webhooks', { url: `${ORIGIN}${path}`, events: ['deal.moved'] }) as Promise<{ id: string }>;

  const secretOf = async (key: string, webhookId: string) =>
    (await api(key, 'GET', `/v1/webhooks/${webhookId}/signing-secret`)).secret as string;

  /** The signed delivery the platform would send, POSTed to `path` of the Worker. */
  const post = async (path: string, secret: string, id: string) => {
    const signed = await delivery({ id, type: 'deal.moved', data: {} }, secret);
    return worker.fetch(new Request(`${ORIGIN}${path}`, signed), workerEnv);
  };

  beforeEach(() => {
    forgetSigningSecrets();
    queued = [];
    platform = createPlatform({
      accounts: [
        { plan: 'agency', apiKey: KEYS.agency },
        { plan: 'business', apiKey: KEYS.acme },
      ],
      rateLimit: false,
      deliveryAttempts: 1,
    });
    workerEnv = {
      ...(env as Env),
      PLATFORM_BASE_URL: PLATFORM,
      PLATFORM_API_KEY: KEYS.agency,
      ACME_PLATFORM_API_KEY: KEYS.acme,
      FUNCTIONS_BASE_URL: ORIGIN,
      EVENTS_QUEUE: {
        send: async (body: QueuedDelivery) => void queued.push(body),
      } as unknown as Queue<QueuedDelivery>,
    } as Env;
    outbound = mockOutbound()
      .on('*', `${PLATFORM}/`, (request) => platform.fetch(request))
      // The platform's deliveries reach this Worker.
      .on('POST', `${ORIGIN}/events`, (request) => worker.fetch(request, workerEnv));
  });
  afterEach(() => outbound.restore());

  it('verifies what each account emits at its own path, with its own secret', async () => {
    await subscribe(KEYS.agency, '/events');
    await subscribe(KEYS.acme, '/events/client-acme');
    const emitted = await Promise.all(
      Object.values(KEYS).map((key) => api(key, 'POST', '/_emulator/emit', { type: 'deal.moved', data: {} })),
    );
    const deliveries = emitted.flatMap((answer) => answer.deliveries as Array<{ url: string; status: number }>);
    expect(deliveries.map(({ url, status }) => ({ url, status }))).toEqual([
      { url: `${ORIGIN}/events`, status: 202 },
      { url: `${ORIGIN}/events/client-acme`, status: 202 },
    ]);
    expect(queued).toHaveLength(2);
    // Each account's secret was read with that account's key.
    const secretReads = outbound.requests.filter((request) => request.url.endsWith('/signing-secret'));
    expect(secretReads.map((request) => request.headers.get('x-api-key')).sort()).toEqual(
      [KEYS.acme, KEYS.agency].sort(),
    );
  });

  it("refuses with 401 a delivery signed with one account's secret posted to another account's path", async () => {
    const agencyHook = await subscribe(KEYS.agency, '/events');
    const acmeHook = await subscribe(KEYS.acme, '/events/client-acme');
    const agencySecret = await secretOf(KEYS.agency, agencyHook.id);
    const acmeSecret = await secretOf(KEYS.acme, acmeHook.id);

    const crossed = await post('/events/client-acme', agencySecret, 'evt_crossed');
    expect(crossed.status).toBe(401);
    expect((await errorOf(crossed)).code).toBe('bad_signature');
    expect((await post('/events', acmeSecret, 'evt_crossed_back')).status).toBe(401);
    expect(queued).toEqual([]);
    expect((await post('/events/client-acme', acmeSecret, 'evt_right')).status).toBe(202);
    expect((await post('/events', agencySecret, 'evt_right_too')).status).toBe(202);
  });

  it('answers 404 for the path of an account the accounts file does not list, asking the platform nothing', async () => {
    const agencyHook = await subscribe(KEYS.agency, '/events');
    const secret = await secretOf(KEYS.agency, agencyHook.id);
    const before = outbound.requests.length;
    const response = await post('/events/someone-else', secret, 'evt_unknown');
    expect(response.status).toBe(404);
    expect((await errorOf(response)).code).toBe('not_found');
    expect(outbound.requests.slice(before)).toEqual([]);
  });

  it("answers 503 when the account's key is not set on the Worker, naming the variable in the log only", async () => {
    const acmeHook = await subscribe(KEYS.acme, '/events/client-acme');
    const secret = await secretOf(KEYS.acme, acmeHook.id);
    workerEnv = { ...workerEnv, ACME_PLATFORM_API_KEY: undefined } as Env;
    const response = await post('/events/client-acme', secret, 'evt_unset');
    expect(response.status).toBe(503);
    expect(JSON.stringify(await errorOf(response))).not.toContain('ACME_PLATFORM_API_KEY');
  });

  it("gives a handler the platform client of the account the event came from, and never another account's", async () => {
    runs.length = 0;
    // One contact in the Agency account, none in Acme's: the count says whose key listed them.
    await api(KEYS.agency, 'POST', '/v1/contacts', { name: 'Ada', phone: '+447700900001', channel: 'whatsapp' });
    const event = (id: string, account: string) => ({ ...queuedDelivery('contact.created', {}, id), account });
    const result = await worker.consume(
      [event('evt_a', 'agency'), event('evt_b', 'client-acme'), event('evt_c', 'gone-account')],
      workerEnv,
    );
    expect(runs.sort((a, b) => String(a.account).localeCompare(String(b.account)))).toEqual([
      { account: 'agency', contacts: 1 },
      { account: 'client-acme', contacts: 0 },
    ]);
    // An account no longer listed: retried (then the dead-letter queue), never sent with another key.
    expect(result.retryMessages).toEqual([{ msgId: 'msg-2' }]);
    expect(outbound.requests.filter((r) => r.url.includes('/v1/contacts') && r.method === 'GET')).toHaveLength(2);
  });

  it('names the first account to the handler of a delivery queued without one, whatever the first is named', async () => {
    runs.length = 0;
    await api(KEYS.agency, 'POST', '/v1/contacts', { name: 'Ada', phone: '+447700900001', channel: 'whatsapp' });
    // Queued before deliveries carried their account: it came to the first account's endpoint.
    const result = await worker.consume([queuedDelivery('contact.created', {}, 'evt_unnamed')], workerEnv);
    expect(result.explicitAcks).toEqual(['msg-0']);
    expect(runs).toEqual([{ account: 'agency', contacts: 1 }]);
  });
});
