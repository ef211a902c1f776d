import { env } from 'cloudflare:workers';
import type { Env } from 'agent-functions';
import { conversationFeatures } from 'agent-functions/conversations';
import { platformFromEnv } from 'agent-functions/platform';
import { bareContext, errorOf, send, settleDeferred, withEnv } from 'agent-functions/testing';
import { createWorker, manifestKey, setLogSink } from 'agent-functions/worker';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import getOrderStatus from '../../functions/get_order_status.ts';
import { functions } from '../../generated/functions.ts';
import { mayMessage, recordConsent } from '../../lib/optOuts.ts';
import { callWith, eventsPlatform, FIRST_ACCOUNT, platformEnv } from '../helpers.ts';

const SECRET = 'test-functions-secret';

import { serveAccounts } from 'agent-functions/accounts';
import { hang, mockOutbound, type Outbound } from 'agent-functions/testing';

const STORE = 'https://store.test/api/orders/';

const shipped = {
  number: '10452',
  email: 'Ann.Lee@Example.com',
  status: 'shipped',
  items: [
    { name: 'Blue mug', quantity: 2 },
    { name: 'Teapot', quantity: 1 },
  ],
  shipment: {
    carrier: 'DHL',
    trackingNumber: 'JD0146',
    trackingUrl: 'https://track.example/JD0146',
    estimatedDelivery: '2026-03-31',
  },
};

// The store's settings (a var and a secret) as this example's own test sets them.
const settings = platformEnv({ STORE_API_URL: 'https://store.test/api', STORE_API_KEY: 'test-store-key' });
const lookUp = (args: Record<string, unknown>) => callWith('get_order_status', args, settings);

let store: Outbound;
let logs: string[];
let restoreSink: (line: string) => void;

describe('get_order_status', () => {
  beforeEach(() => {
    store = mockOutbound();
    logs = [];
    restoreSink = setLogSink((line) => logs.push(line));
  });
  afterEach(() => {
    store.restore();
    setLogSink(restoreSink);
  });

  it("answers with the order's status and tracking, read from the store with the store's key", async () => {
    store.on('GET', STORE, () => Response.json(shipped));
    const response = await lookUp({ orderNumber: '#10452', email: 'ann.lee@example.com' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      found: true,
      orderNumber: '10452',
      status: 'shipped',
      items: '2 × Blue mug, 1 × Teapot',
      carrier: 'DHL',
      trackingNumber: 'JD0146',
      trackingUrl: 'https://track.example/JD0146',
      estimatedDelivery: '2026-03-31',
      summary:
        'Order 10452 is on its way, with DHL, tracking number JD0146, expected 2026-03-31. It contains 2 × Blue mug, 1 × Teapot.',
    });
    expect(store.requests).toHaveLength(1);
    const [request] = store.requests;
    expect(request?.url).toBe(`${STORE}10452`);
    expect(request?.headers.get('authorization')).toBe('Bearer test-store-key');
  });

  it('reads an order without shipment details aloud too', async () => {
    store.on('GET', STORE, () => Response.json({ number: '7', email: 'a@b.co', status: 'processing', items: [] }));
    const body = (await (await lookUp({ orderNumber: '7', email: 'a@b.co' })).json()) as { summary: string };
    expect(body.summary).toBe('Order 7 is being prepared.');
  });

  it('answers the same neutral 404 for an unknown order and for a wrong email, revealing nothing', async () => {
    store.on('GET', `${STORE}999`, () => new Response('{"error":"not found"}', { status: 404 }));
    store.on('GET', `${STORE}10452`, () => Response.json(shipped));
    const unknown = await lookUp({ orderNumber: '999', email: 'ann.lee@example.com' });
    const wrongEmail = await lookUp({ orderNumber: '10452', email: 'someone@else.com' });
    expect([unknown.status, wrongEmail.status]).toEqual([404, 404]);
    const [a, b] = [await unknown.text(), await wrongEmail.text()];
    const [ea, eb] = [JSON.parse(a).error, JSON.parse(b).error];
    expect(ea.code).toBe('order_not_found');
    expect(ea.message).toBe(eb.message);
    expect(ea.message).toContain('No order matches that order number and email address');
    for (const secret of ['Blue mug', 'DHL', 'JD0146', 'Ann.Lee']) expect(b).not.toContain(secret);
  });

  it('refuses an order the store answers for a different number', async () => {
    store.on('GET', STORE, () => Response.json({ ...shipped, number: '10453' }));
    const response = await lookUp({ orderNumber: '10452', email: 'ann.lee@example.com' });
    expect((await errorOf(response)).code).toBe('order_not_found');
  });

  it.each([
    ['a server error', () => new Response('oops', { status: 500 })],
    ['a refused key', () => new Response('no', { status: 401 })],
    ['rate limiting', () => new Response('slow down', { status: 429 })],
    ['a redirect', () => new Response(null, { status: 302, headers: { location: 'https://elsewhere.test/' } })],
    ['an answer that is not JSON', () => new Response('<html>', { status: 200 })],
    ['an answer of another shape', () => Response.json({ orders: [] })],
    [
      'a network error',
      () => {
        throw new TypeError('Network connection lost.');
      },
    ],
  ])('turns %s from the store into a polite 502 the model can relay', async (_, handler) => {
    store.on('GET', STORE, handler);
    const response = await lookUp({ orderNumber: '10452', email: 'ann.lee@example.com' });
    expect(response.status).toBe(502);
    const error = await errorOf(response);
    expect(error.code).toBe('store_unavailable');
    expect(error.message).toContain('Apologise');
    expect(error.message).not.toContain('test-store-key');
    expect(logs.join('\n')).not.toContain('test-store-key');
    expect(logs.join('\n')).not.toContain('ann.lee');
  });

  it('gives up on a store that does not answer, before the function times out', async () => {
    store.on('GET', STORE, hang);
    const started = Date.now();
    // The store's limit shortened by its setting, so the test waits 100 ms, not 4 s.
    const response = await callWith('get_order_status', { orderNumber: '10452', email: 'ann.lee@example.com' }, {
      ...settings,
      STORE_TIMEOUT_MS: '100',
    } as typeof settings);
    expect(response.status).toBe(504);
    expect((await errorOf(response)).code).toBe('store_timeout');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it.each([
    ['orderNumber', { email: 'a@b.co' }],
    ['orderNumber', { orderNumber: '10452/../../admin', email: 'a@b.co' }],
    ['orderNumber', { orderNumber: 'x'.repeat(33), email: 'a@b.co' }],
    ['email', { orderNumber: '10452' }],
    ['email', { orderNumber: '10452', email: 'not-an-email' }],
  ])('answers 422 naming "%s" without calling the store', async (argument, args) => {
    const response = await lookUp(args);
    expect(response.status).toBe(422);
    expect((await errorOf(response)).details).toEqual([expect.objectContaining({ argument })]);
    expect(store.requests).toHaveLength(0);
  });

  it('answers 503 when the store is not configured', async () => {
    const context = bareContext();
    await expect(getOrderStatus.handler({ orderNumber: '1', email: 'a@b.co' }, context)).rejects.toMatchObject({
      status: 503,
      code: 'not_configured',
    });
    expect(store.requests).toHaveLength(0);
  });

  it('declares the store settings it reads, so npm run secrets checks them before a deploy', async () => {
    const response = await send('/functions', { headers: { authorization: `Bearer ${await manifestKey(SECRET)}` } });
    const { functions } = (await response.json()) as {
      functions: { name: string; secrets?: string[]; vars?: string[] }[];
    };
    expect(functions.find((fn) => fn.name === 'get_order_status')).toMatchObject({
      secrets: ['STORE_API_KEY'],
      vars: ['STORE_API_URL'],
    });
  });
});

describe('get_order_status with a slow store, in a conversation', () => {
  const conversation = { contactId: 'ct_ann', conversationId: 'cv_ann', channel: 'whatsapp' };
  const args = { orderNumber: '10452', email: 'ann.lee@example.com', ...conversation };
  let platform: ReturnType<typeof eventsPlatform>;
  beforeEach(() => {
    platform = eventsPlatform();
    let lookups = 0;
    // The first look-up (the call's own) takes 3 s; the deferred one answers at once.
    platform.outbound.on('GET', STORE, async () => {
      if (++lookups === 1) await new Promise((resolve) => setTimeout(resolve, 3_000));
      return Response.json(shipped);
    });
  });
  afterEach(() => platform.outbound.restore());

  // Deferred after 100 ms rather than the function's 2.5 s: the same deferral, without the wait.
  const lookUpLater = async () => {
    const started = Date.now();
    const { result } = await settleDeferred(
      async () => ({ response: await lookUp(args), tookMs: Date.now() - started }),
      { answerWithinMs: 100 },
    );
    return result;
  };

  it('tells the agent it is checking, then messages the customer the status once', async () => {
    const { response, tookMs } = await lookUpLater();
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'pending', message: expect.stringContaining('warehouse') });
    // Well before the store's 3 s look-up.
    expect(tookMs).toBeLessThan(2_000);
    expect(platform.messages).toEqual([
      expect.objectContaining({
        contactId: 'ct_ann',
        channel: 'whatsapp',
        text: expect.stringContaining('Order 10452 is on its way, with DHL'),
      }),
    ]);
  });

  it('sends nothing to a customer who wrote STOP', async () => {
    await recordConsent(env as Env, FIRST_ACCOUNT.name, 'ct_ann', true);
    try {
      const { response } = await lookUpLater();
      expect(((await response.json()) as { status: string }).status).toBe('pending');
      expect(platform.messages).toEqual([]);
    } finally {
      await recordConsent(env as Env, FIRST_ACCOUNT.name, 'ct_ann', false);
    }
  });

  it('sends nothing to a customer who wrote STOP to a first account not named "default"', async () => {
    // worker.ts's parts with the docs' agency layout: the first account is "agency".
    const agency = createWorker({
      functions,
      accounts: serveAccounts({
        list: [{ name: 'agency', apiKeyEnv: 'PLATFORM_API_KEY', baseUrlEnv: 'PLATFORM_BASE_URL' }],
      }),
      platform: platformFromEnv,
      conversations: conversationFeatures,
      mayMessage,
    });
    // What events/message.received.ts records for a STOP delivered to agency's webhook.
    await recordConsent(env as Env, 'agency', 'ct_ann', true);
    try {
      const { result: response } = await settleDeferred(
        () => withEnv(agency, settings).call('get_order_status', args),
        {
          answerWithinMs: 100,
        },
      );
      expect(((await response.json()) as { status: string }).status).toBe('pending');
      expect(platform.messages).toEqual([]);
    } finally {
      await recordConsent(env as Env, 'agency', 'ct_ann', false);
    }
  });
});
