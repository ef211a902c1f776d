// Events for an account whose key is only in the account store (issue: a client onboarded with
// `npm run accounts -- add client-c` against a running Worker had its customer's STOP answered 404).
// The test follows `accounts add`'s path: the key is PUT to the Worker's /accounts, the account's
// webhook is registered at /events/client-c with its own key, and the platform delivers a signed
// STOP there. No redeploy: the Worker below was made before the account existed.
import {
  createExecutionContext,
  createMessageBatch,
  getQueueResult,
  runInDurableObject,
  waitOnExecutionContext,
} from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { createPlatform, PLATFORM_URL as PLATFORM, type Platform } from 'agent-functions-cli/platform';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { accountStore } from '../../accounts/admin.ts';
import { serveAccounts } from '../../accounts/serve.ts';
import { forgetStoredAccount, readStoredAccount } from '../../accounts/store.ts';
import type { AccountStore } from '../../accounts/storeObject.ts';
import { createWorker } from '../../createWorker.ts';
import type { Env } from '../../env.ts';
import { defineEvent } from '../../events/define.ts';
import type { QueuedDelivery } from '../../events/delivery.ts';
import { serveEvents } from '../../events/serve.ts';
import { accountsKey } from '../../keys.ts';
import { mockOutbound, type Outbound } from '../../testing/outbound.ts';
import { ORIGIN, SECRET } from '../helpers.ts';
import { forgetSigningSecrets } from './helpers.ts';

const KEYS = { agency: 'key-agency-stored-test', clientC: 'key-client-c-stored-test' };

/** What each STOP handler run saw: its account, its text, and how many contacts its platform client listed. */
const runs: Array<{ account: string | undefined; text: string; contacts: number }> = [];
const worker = createWorker({
  functions: {},
  // What generate writes for an accounts file that lists only the agency: client-c is not in the bundle.
  accounts: serveAccounts({
    list: [{ name: 'agency', apiKeyEnv: 'PLATFORM_API_KEY', baseUrlEnv: 'PLATFORM_BASE_URL' }],
    store: readStoredAccount,
  }),
  accountStore,
  events: serveEvents({
    'message.received': defineEvent({
      type: 'message.received',
      payload: z.looseObject({ data: z.looseObject({ text: z.string() }) }),
      handler: async ({ data }, { account, platform }) => {
        runs.push({ account, text: data.text, contacts: (await platform.contacts.list()).length });
      },
    }),
  }),
});

describe('events of an account whose key is in the account store', () => {
  let outbound: Outbound;
  let platform: Platform;
  let queued: QueuedDelivery[];
  let workerEnv: Env;

  const fetchWorker = async (request: Request) => {
    const ctx = createExecutionContext();
    const response = await worker.fetch(request, workerEnv, ctx);
    await waitOnExecutionContext(ctx);
    return response;
  };

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

  beforeEach(() => {
    forgetSigningSecrets();
    forgetStoredAccount();
    runs.length = 0;
    queued = [];
    platform = createPlatform({
      accounts: [
        { plan: 'agency', apiKey: KEYS.agency },
        { plan: 'business', apiKey: KEYS.clientC },
      ],
      rateLimit: false,
      deliveryAttempts: 1,
    });
    workerEnv = {
      ...(env as Env),
      PLATFORM_BASE_URL: PLATFORM,
      PLATFORM_API_KEY: KEYS.agency,
      FUNCTIONS_BASE_URL: ORIGIN,
      EVENTS_QUEUE: {
        send: async (body: QueuedDelivery) => void queued.push(body),
      } as unknown as Queue<QueuedDelivery>,
    } as Env;
    outbound = mockOutbound()
      .on('*', `${PLATFORM}/`, (request) => platform.fetch(request))
      // The platform's deliveries reach this Worker.
      .on('POST', `${ORIGIN}/events`, (request) => fetchWorker(request));
  });
  afterEach(() => outbound.restore());

  it('verifies and handles a STOP delivered to an account onboarded through the store, with no redeploy', async () => {
    // npm run accounts -- add client-c: the key goes to the Worker's store, never to a variable.
    const stored = await fetchWorker(
      new Request(`${ORIGIN}/accounts/client-c`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${await accountsKey(SECRET)}`, 'content-type': 'application/json' },
        body: JSON.stringify({ apiKey: KEYS.clientC, baseUrl: PLATFORM }),
      }),
    );
    expect(stored.status).toBe(200);
    // ...then sync registers its webhook at its own path.
    await api(KEYS.clientC, 'POST', '/v1/webhooks', { url: `${ORIGIN}/events/client-c`, events: ['message.received'] });

    const emitted = await api(KEYS.clientC, 'POST', '/_emulator/emit', {
      type: 'message.received',
      data: { text: 'STOP' },
    });
    const deliveries = emitted.deliveries as Array<{ url: string; status: number }>;
    expect(deliveries.map(({ url, status }) => ({ url, status }))).toEqual([
      { url: `${ORIGIN}/events/client-c`, status: 202 },
    ]);
    expect(queued.map((delivery) => delivery.account)).toEqual(['client-c']);
    // Its signing secret was read with its stored key, never the agency's.
    const secretReads = outbound.requests.filter((request) => request.url.endsWith('/signing-secret'));
    expect(secretReads.map((request) => request.headers.get('x-api-key'))).toEqual([KEYS.clientC]);

    // The queue hands it to the handler, whose platform client acts in client-c with the stored key.
    const batch = createMessageBatch(
      'agent-functions-events',
      queued.map((body, i) => ({ id: `msg-${i}`, timestamp: new Date(), attempts: 1, body })),
    );
    const ctx = createExecutionContext();
    await worker.queue?.(batch, workerEnv, ctx);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual(['msg-0']);
    expect(runs).toEqual([{ account: 'client-c', text: 'STOP', contacts: expect.any(Number) }]);
    const contactReads = outbound.requests.filter((request) => request.url.startsWith(`${PLATFORM}/v1/contacts`));
    expect(contactReads.map((request) => request.headers.get('x-api-key'))).toEqual([KEYS.clientC]);
  });

  it('answers 404 for an account neither the accounts file nor the store holds, asking the platform nothing and storing nothing', async () => {
    const before = outbound.requests.length;
    const response = await fetchWorker(
      new Request(`${ORIGIN}/events/client-nobody`, {
        method: 'POST',
        headers: { 'x-webhook-timestamp': '1', 'x-webhook-signature': 'v1=00' },
        body: '{}',
      }),
    );
    expect(response.status).toBe(404);
    expect(outbound.requests.slice(before).filter((request) => request.url.startsWith(PLATFORM))).toEqual([]);
    // The store was asked, and kept nothing for a name nobody stored.
    const namespace = workerEnv.ACCOUNT_STORE as DurableObjectNamespace<AccountStore>;
    const tables = await runInDurableObject(namespace.get(namespace.idFromName('client-nobody')), (_, state) =>
      state.storage.sql.exec("SELECT name FROM sqlite_master WHERE type = 'table'").toArray(),
    );
    expect(tables).toEqual([]);
  });
});
