import { createExecutionContext } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createWorker } from '../../createWorker.ts';
import { defineEvent } from '../../events/define.ts';
import type { QueuedDelivery } from '../../events/delivery.ts';
import { signWebhook } from '../../platform/protocol/signature.ts';
import { errorOf } from '../helpers.ts';
import { delivery, EVENTS_URL, eventsEnv, eventsPlatform, eventsWorker, forgetSigningSecrets } from './helpers.ts';

const handled: unknown[] = [];
const worker = eventsWorker({
  'deal.moved': defineEvent({
    type: 'deal.moved',
    payload: z.looseObject({ data: z.looseObject({ stage: z.string() }) }),
    handler: (payload) => {
      handled.push(payload);
    },
  }),
});

/** A queue that keeps what it was given, so a test sees exactly what was queued. */
const fakeQueue = () => {
  const sent: QueuedDelivery[] = [];
  return {
    sent,
    env: eventsEnv({
      EVENTS_QUEUE: { send: async (body: QueuedDelivery) => void sent.push(body) } as unknown as Queue<QueuedDelivery>,
    }),
  };
};

const EVENT = { id: 'evt_1', type: 'deal.moved', data: { stage: 'won' } };

describe('POST /events', () => {
  let platform: ReturnType<typeof eventsPlatform>;
  beforeEach(() => {
    forgetSigningSecrets();
    platform = eventsPlatform();
  });
  afterEach(() => platform.outbound.restore());

  it('answers 202 once a delivery signed with the webhook secret is on the queue', async () => {
    const queue = fakeQueue();
    const response = await worker.fetch(await delivery(EVENT, platform.secret), queue.env);
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ accepted: true, type: 'deal.moved', deliveryId: 'id:evt_1' });
    expect(queue.sent).toEqual([
      {
        type: 'deal.moved',
        deliveryId: 'id:evt_1',
        body: JSON.stringify(EVENT),
        receivedAt: expect.any(Number),
        account: 'default',
      },
    ]);
    expect(handled).toEqual([]);
  });

  it('keys a delivery without an id by its signature and body', async () => {
    const queue = fakeQueue();
    const body = JSON.stringify({ type: 'deal.moved', data: { stage: 'lost' } });
    await worker.fetch(await delivery(body, platform.secret), queue.env);
    expect(queue.sent[0]?.deliveryId).toMatch(/^sig:[0-9a-f]{64}$/);
  });

  it.each([
    ['unsigned', async () => delivery(EVENT, undefined)],
    ['signed with another secret (forged)', async () => delivery(EVENT, 'whsec_guessed')],
    ['signed six minutes ago (stale)', async () => delivery(EVENT, platform.secret, Date.now() - 6 * 60_000)],
    ['signed six minutes ahead', async () => delivery(EVENT, platform.secret, Date.now() + 6 * 60_000)],
    [
      'with a malformed signature',
      async () =>
        new Request(EVENTS_URL, {
          method: 'POST',
          headers: { 'x-webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'x-webhook-signature': 'v1=abc' },
          body: JSON.stringify(EVENT),
        }),
    ],
    [
      'whose body was changed after signing',
      async () => {
        const signed = await delivery(EVENT, platform.secret);
        return new Request(signed, { body: JSON.stringify({ ...EVENT, data: { stage: 'lost' } }) });
      },
    ],
  ])('refuses a delivery %s with 401 and queues nothing', async (_, make) => {
    const queue = fakeQueue();
    const response = await worker.fetch(await make(), queue.env);
    expect(response.status).toBe(401);
    expect((await errorOf(response)).code).toBe('bad_signature');
    expect(queue.sent).toEqual([]);
  });

  it('refuses unsigned and stale deliveries without asking the platform for the secret', async () => {
    const queue = fakeQueue();
    await worker.fetch(await delivery(EVENT, undefined), queue.env);
    await worker.fetch(await delivery(EVENT, platform.secret, Date.now() - 3600_000), queue.env);
    expect(platform.outbound.requests).toEqual([]);
  });

  it('acknowledges a type without a handler with 200 and queues nothing', async () => {
    const queue = fakeQueue();
    const response = await worker.fetch(
      await delivery({ id: 'e', type: 'contact.created' }, platform.secret),
      queue.env,
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ignored: true, type: 'contact.created' });
    expect(queue.sent).toEqual([]);
  });

  it('answers 400 for a signed body that is not an event', async () => {
    const queue = fakeQueue();
    const response = await worker.fetch(await delivery('[1,2]', platform.secret), queue.env);
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe('malformed_delivery');
  });

  it('answers 503 with Retry-After when the secret cannot be read, so the platform delivers again', async () => {
    const queue = fakeQueue();
    const response = await worker.fetch(await delivery(EVENT, platform.secret), eventsEnv({ PLATFORM_API_KEY: '' }));
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('30');
    expect(queue.sent).toEqual([]);
  });

  it('answers 503 when the queue refuses the delivery', async () => {
    const broken = eventsEnv({
      EVENTS_QUEUE: { send: async () => Promise.reject(new Error('queue down')) } as unknown as Queue<QueuedDelivery>,
    });
    const response = await worker.fetch(await delivery(EVENT, platform.secret), broken);
    expect(response.status).toBe(503);
    expect((await errorOf(response)).code).toBe('events_unavailable');
  });

  it('never writes the signing secret or the signature into an answer or a log line', async () => {
    const lines: string[] = [];
    const spy = vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
    const queue = fakeQueue();
    const request = await delivery(EVENT, platform.secret);
    const signature = request.headers.get('x-webhook-signature') ?? '';
    const answers = [
      await (await worker.fetch(request, queue.env)).text(),
      await (await worker.fetch(await delivery(EVENT, 'whsec_guessed'), queue.env)).text(),
    ];
    spy.mockRestore();
    for (const text of [...answers, ...lines]) {
      expect(text).not.toContain(platform.secret);
      expect(text).not.toContain(signature.slice(3));
    }
  });

  it('refuses GET with 405', async () => {
    const response = await worker.fetch(new Request(EVENTS_URL));
    expect(response.status).toBe(405);
  });

  it('verifies with the same scheme the platform signs with', async () => {
    const body = JSON.stringify(EVENT);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const request = new Request(EVENTS_URL, {
      method: 'POST',
      headers: {
        'x-webhook-timestamp': timestamp,
        'x-webhook-signature': await signWebhook(platform.secret, timestamp, body),
      },
      body,
    });
    expect((await worker.fetch(request, fakeQueue().env)).status).toBe(202);
  });
});

describe('a Worker without events', () => {
  it('serves no events endpoint and has no queue handler', async () => {
    const plain = createWorker({ functions: {} });
    const response = await plain.fetch(await delivery(EVENT, 'whsec_any'), eventsEnv(), createExecutionContext());
    expect(response.status).toBe(404);
    expect('queue' in plain).toBe(false);
  });
});
