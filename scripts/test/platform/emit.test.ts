// The local platform emits events: every subscribed webhook gets the event signed with its own
// secret, a failed delivery is retried (re-signed), and fault switches drop or duplicate deliveries.

import { createPlatformClient, verifyWebhook } from 'agent-functions/platform';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../platform/emulator.ts';
import { type Received, startReceiver } from './receiver.ts';

let emulator: RunningEmulator;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
afterEach(async () => {
  await emulator?.close();
  await receiver?.close();
});

const setUp = async (answer: (received: Received) => { status: number; body: unknown }, faults = {}) => {
  emulator = await startEmulator({ port: 0, rateLimit: false, deliveryRetryDelayMs: 1, faults });
  receiver = await startReceiver(answer);
  const key = emulator.accounts.find((a) => a.plan === 'business')?.apiKey ?? '';
  const client = createPlatformClient({ baseUrl: emulator.url, apiKey: key });
  const webhook = await client.webhooks.create({ url: `${receiver.url}/events`, events: ['appointment.booked'] });
  await client.webhooks.create({ url: `${receiver.url}/other`, events: ['message.received'] });
  const emit = async (type: string, data: unknown) => {
    const response = await fetch(`${emulator.url}/_emulator/emit`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ type, data }),
    });
    return { status: response.status, ...((await response.json()) as { deliveries: Array<Record<string, unknown>> }) };
  };
  return { client, webhook, emit };
};

const booked = { appointment: { id: 'apt_1', contactId: 'ct_1', startsAt: '2026-12-01T10:30:00Z' } };

describe('npm run platform -- emit', () => {
  it('delivers the event to each subscribed webhook only, signed with that webhook’s secret', async () => {
    const { client, webhook, emit } = await setUp(() => ({ status: 202, body: {} }));
    const result = await emit('appointment.booked', booked);
    expect(result.status).toBe(201);
    expect(result.deliveries).toEqual([
      expect.objectContaining({ webhookId: webhook.id, status: 202, attempts: 1, delivered: true }),
    ]);
    expect(receiver.received).toHaveLength(1);
    const [delivery] = receiver.received as [Received];
    expect(delivery.url).toBe('/events');
    expect(JSON.parse(delivery.body)).toMatchObject({
      id: expect.any(String),
      type: 'appointment.booked',
      data: booked,
    });
    const { secret } = await client.webhooks.signingSecret.get(webhook.id);
    const verdict = await verifyWebhook(
      secret,
      delivery.headers['x-webhook-timestamp'] as string,
      delivery.headers['x-webhook-signature'] as string,
      delivery.body,
    );
    expect(verdict).toBe('ok');
  });

  it('retries a delivery that fails, signing each attempt afresh, until it is acknowledged', async () => {
    let calls = 0;
    const { emit } = await setUp(() => (++calls < 3 ? { status: 503, body: {} } : { status: 200, body: {} }));
    const result = await emit('appointment.booked', booked);
    expect(result.deliveries).toEqual([expect.objectContaining({ status: 200, attempts: 3, delivered: true })]);
    const ids = receiver.received.map((r) => JSON.parse(r.body).id);
    expect(new Set(ids).size).toBe(1);
    expect(receiver.received.map((r) => r.headers['x-webhook-signature'])).toHaveLength(3);
  });

  it('gives up after the attempts run out and says so', async () => {
    const { emit } = await setUp(() => ({ status: 500, body: {} }));
    const result = await emit('appointment.booked', booked);
    expect(result.deliveries).toEqual([expect.objectContaining({ status: 500, attempts: 3, delivered: false })]);
  });

  it('drops a delivery under the dropDeliveries fault', async () => {
    const { emit } = await setUp(() => ({ status: 200, body: {} }), { dropDeliveries: { count: 1 } });
    expect((await emit('appointment.booked', booked)).deliveries).toEqual([
      expect.objectContaining({ skipped: 'dropped (fault)' }),
    ]);
    expect(receiver.received).toEqual([]);
    expect((await emit('appointment.booked', booked)).deliveries).toEqual([
      expect.objectContaining({ delivered: true }),
    ]);
  });

  it('sends one delivery twice under the duplicateDeliveries fault: same event id, two signatures', async () => {
    const { emit } = await setUp(() => ({ status: 200, body: {} }), { duplicateDeliveries: { count: 1 } });
    const result = await emit('appointment.booked', booked);
    expect(result.deliveries).toEqual([expect.objectContaining({ attempts: 2, duplicated: true })]);
    expect(receiver.received).toHaveLength(2);
    const [a, b] = receiver.received.map((r) => JSON.parse(r.body));
    expect(a).toEqual(b);
  });

  it('refuses a type that is not an event type name with 422', async () => {
    const { emit } = await setUp(() => ({ status: 200, body: {} }));
    expect((await emit('Booked!', {})).status).toBe(422);
  });
});
