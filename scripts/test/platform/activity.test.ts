// What the platform did, inspectable: GET /v1/messages (emulator-only: the spec defines no read
// route) lists what functions and handlers sent, and GET /_emulator/activity keeps the calls the
// emulator made as the agent and the deliveries with each webhook's answer, in one sequence with
// the messages, for the dev console.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityAnswer } from '../../platform/routes/activity.ts';
import { clientOf, keyOf, raw, useEmulator } from './helpers.ts';

const emulator = useEmulator({ deliveryRetryDelayMs: 1 });
let contactId = '';
let server: Server;
let base = '';

/** A function (and a webhook receiver) that sends a message to the contact while it handles the call. */
beforeAll(async () => {
  const { client } = clientOf(emulator.current, { plan: 'agency' });
  contactId = (await client.contacts.create({ name: 'Ada', phone: '+15550100', channel: 'whatsapp' })).id;
  server = createServer(async (request, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    await client.messages.send({ contactId, channel: 'whatsapp', text: `handled ${request.url?.split('?')[0]}` });
    response.writeHead(request.url?.startsWith('/events') ? 202 : 200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ summary: 'Done.', got: body.length }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await client.customFunctions.create({
    name: 'confirm',
    description: 'Confirms. Call it when the customer confirms.',
    url: `${base}/functions/confirm?key=secret-key`,
    parameters: {},
  });
  await client.webhooks.create({ url: `${base}/events`, events: ['message.received'] });
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const agency = () => keyOf(emulator.current, 'agency');
const activity = async (after = 0): Promise<ActivityAnswer> =>
  (await (
    await raw(emulator.current, `/_emulator/activity?after=${after}`, { key: agency() })
  ).json()) as ActivityAnswer;

describe('what the local platform did', () => {
  it('lists sent messages with GET /v1/messages, one contact with ?contactId=', async () => {
    const { client } = clientOf(emulator.current, { plan: 'agency' });
    await client.messages.send({ contactId, channel: 'whatsapp', text: 'Your order shipped.' });
    const response = await raw(emulator.current, `/v1/messages?contactId=${contactId}`, { key: agency() });
    expect(response.status).toBe(200);
    const page = (await response.json()) as { data: Array<Record<string, unknown>>; next: string | null };
    expect(page.data.at(-1)).toMatchObject({ contactId, text: 'Your order shipped.', direction: 'outbound' });
    expect(page.data.at(-1)).not.toHaveProperty('seq');
    const other = await raw(emulator.current, '/v1/messages?contactId=ct_other', { key: agency() });
    expect(((await other.json()) as { data: unknown[] }).data).toEqual([]);
  });

  it('keeps a call it made as the agent, and the message the function sent during it falls inside its time', async () => {
    const { last } = await activity();
    const called = await raw(emulator.current, '/_emulator/call', {
      method: 'POST',
      key: agency(),
      body: JSON.stringify({ name: 'confirm', arguments: { contactId } }),
    });
    expect(called.status).toBe(200);
    const next = await activity(last);
    const call = next.activity.find((record) => record.kind === 'call');
    expect(call).toMatchObject({ kind: 'call', name: 'confirm', status: 200, arguments: { contactId } });
    expect(call?.kind === 'call' && call.url).toBe(`${base}/functions/confirm?key=***`);
    const message = next.messages.find((m) => m.text === 'handled /functions/confirm');
    expect(message).toBeDefined();
    // With its contact's name, for the console to show.
    expect(message?.contactName).toBe('Ada');
    expect(message?.at).toBeGreaterThanOrEqual(call?.startedAt ?? Number.NaN);
    expect(message?.at).toBeLessThanOrEqual(call?.endedAt ?? Number.NaN);
  });

  it('keeps a delivery with what each webhook answered, the contact it is about and the message that caused it', async () => {
    const { last } = await activity();
    const inbound = await raw(emulator.current, '/_emulator/inbound', {
      method: 'POST',
      key: agency(),
      body: JSON.stringify({ contactId, text: 'STOP' }),
    });
    const { message } = (await inbound.json()) as { message: { id: string } };
    const next = await activity(last);
    const delivery = next.activity.find((record) => record.kind === 'delivery');
    expect(delivery).toMatchObject({ kind: 'delivery', type: 'message.received', contactId, messageId: message.id });
    expect(delivery?.kind === 'delivery' && delivery.deliveries[0]).toMatchObject({
      url: `${base}/events`,
      status: 202,
      delivered: true,
      attempts: 1,
    });
    expect(next.messages.map((m) => m.text)).toEqual(['STOP', 'handled /events']);
    expect(next.last).toBeGreaterThan(last);
  });

  it("keeps each account's activity to itself", async () => {
    const response = await raw(emulator.current, '/_emulator/activity');
    expect(((await response.json()) as ActivityAnswer).activity).toEqual([]);
  });
});
