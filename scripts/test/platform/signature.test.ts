// Webhook signatures: the spec's v1= scheme, round trips, every refusal, and the emulator's signed
// deliveries verified by a real receiver with the per-webhook secret.

import { signWebhook, verifyWebhook, webhookHeaders } from 'agent-functions/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientOf, keyOf, raw, useEmulator } from './helpers.ts';
import { startReceiver } from './receiver.ts';

const SECRET = 'whsec_test';
const BODY = '{"type":"message.received","data":{"text":"hi"}}';
const NOW = 1_700_000_000_000;
const TS = String(NOW / 1000);

describe('signWebhook and verifyWebhook', () => {
  it('round-trips: what signWebhook signs, verifyWebhook accepts', async () => {
    const signature = await signWebhook(SECRET, TS, BODY);
    expect(signature).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(await verifyWebhook(SECRET, TS, signature, BODY, { now: NOW })).toBe('ok');
  });

  it('signs the spec string <timestamp>.<raw body> (a known HMAC-SHA256 vector)', async () => {
    // HMAC-SHA256("key", "1.The quick brown fox jumps over the lazy dog") computed independently.
    const { createHmac } = await import('node:crypto');
    const expected = createHmac('sha256', 'key').update('1.The quick brown fox jumps over the lazy dog').digest('hex');
    expect(await signWebhook('key', '1', 'The quick brown fox jumps over the lazy dog')).toBe(`v1=${expected}`);
  });

  it('refuses a signature made with another secret', async () => {
    const signature = await signWebhook('whsec_other', TS, BODY);
    expect(await verifyWebhook(SECRET, TS, signature, BODY, { now: NOW })).toBe('mismatch');
  });

  it('refuses an altered body', async () => {
    const signature = await signWebhook(SECRET, TS, BODY);
    expect(await verifyWebhook(SECRET, TS, signature, BODY.replace('hi', 'ho'), { now: NOW })).toBe('mismatch');
  });

  it('refuses a stale timestamp (a replay) and one too far in the future', async () => {
    const signature = await signWebhook(SECRET, TS, BODY);
    expect(await verifyWebhook(SECRET, TS, signature, BODY, { now: NOW + 301_000 })).toBe('stale');
    expect(await verifyWebhook(SECRET, TS, signature, BODY, { now: NOW - 301_000 })).toBe('stale');
    expect(await verifyWebhook(SECRET, TS, signature, BODY, { now: NOW + 299_000 })).toBe('ok');
  });

  it('refuses a timestamp changed to look fresh', async () => {
    const signature = await signWebhook(SECRET, TS, BODY);
    expect(await verifyWebhook(SECRET, String(NOW / 1000 + 60), signature, BODY, { now: NOW })).toBe('mismatch');
  });

  it('calls missing or malformed headers malformed', async () => {
    const signature = await signWebhook(SECRET, TS, BODY);
    expect(await verifyWebhook(SECRET, null, signature, BODY)).toBe('malformed');
    expect(await verifyWebhook(SECRET, TS, null, BODY)).toBe('malformed');
    expect(await verifyWebhook(SECRET, TS, signature.replace('v1=', 'v0='), BODY)).toBe('malformed');
    expect(await verifyWebhook(SECRET, 'yesterday', signature, BODY)).toBe('malformed');
  });

  it('builds both delivery headers with webhookHeaders', async () => {
    const headers = await webhookHeaders(SECRET, BODY, NOW);
    expect(headers['X-Webhook-Timestamp']).toBe(TS);
    expect(await verifyWebhook(SECRET, TS, headers['X-Webhook-Signature'], BODY, { now: NOW })).toBe('ok');
  });
});

describe('signed message.received deliveries', () => {
  const emulator = useEmulator();
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver(() => ({ status: 200, body: { ok: true } }));
  });
  afterAll(() => receiver.close());

  /** A customer of the account with `key` writes in. */
  const inbound = async (contactId: string, key = keyOf(emulator.current)) => {
    const response = await raw(emulator.current, '/_emulator/inbound', {
      method: 'POST',
      key,
      body: JSON.stringify({ contactId, text: 'Do you open on Sunday?' }),
    });
    expect(response.status).toBe(201);
    return (await response.json()) as { deliveries: Array<{ webhookId: string; status?: number; skipped?: string }> };
  };

  it('signs each delivery with the webhook’s current secret, and a rotated secret replaces the old one', async () => {
    const { client } = clientOf(emulator.current);
    const webhook = await client.webhooks.create({ url: `${receiver.url}/hook`, events: ['message.received'] });
    const contact = await client.contacts.create({ name: 'Ada', phone: '+14155550123', channel: 'webchat' });
    const { secret } = await client.webhooks.signingSecret.get(webhook.id);

    const first = await inbound(contact.id);
    expect(first.deliveries).toEqual([expect.objectContaining({ webhookId: webhook.id, status: 200 })]);
    const delivery = receiver.received.at(-1);
    if (!delivery) throw new Error('no delivery');
    const timestamp = delivery.headers['x-webhook-timestamp'] as string;
    const signature = delivery.headers['x-webhook-signature'] as string;
    expect(await verifyWebhook(secret, timestamp, signature, delivery.body)).toBe('ok');
    expect(JSON.parse(delivery.body)).toMatchObject({
      type: 'message.received',
      data: { message: { contactId: contact.id, text: 'Do you open on Sunday?', direction: 'inbound' } },
    });

    const rotated = await client.webhooks.signingSecret.rotate(webhook.id);
    await inbound(contact.id);
    const next = receiver.received.at(-1);
    if (!next) throw new Error('no delivery');
    const nextTs = next.headers['x-webhook-timestamp'] as string;
    const nextSig = next.headers['x-webhook-signature'] as string;
    expect(await verifyWebhook(rotated.secret, nextTs, nextSig, next.body)).toBe('ok');
    expect(await verifyWebhook(secret, nextTs, nextSig, next.body)).toBe('mismatch');
  });

  it('sends no unsigned delivery once the signing secret is deleted', async () => {
    const { client } = clientOf(emulator.current, { plan: 'agency' });
    const webhook = await client.webhooks.create({ url: `${receiver.url}/other`, events: ['message.received'] });
    const contact = await client.contacts.create({ name: 'Grace', phone: '+14155550124', channel: 'whatsapp' });
    await client.webhooks.signingSecret.delete(webhook.id);
    const before = receiver.received.length;
    const { deliveries } = await inbound(contact.id, keyOf(emulator.current, 'agency'));
    expect(deliveries).toEqual([{ webhookId: webhook.id, skipped: expect.stringMatching(/no signing secret/) }]);
    expect(receiver.received.length).toBe(before);
  });
});
