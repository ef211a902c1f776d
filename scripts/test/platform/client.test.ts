// The client against the local platform over real HTTP: every endpoint, the three key placements.

import { createPlatformClient } from 'agent-functions/platform';
import { describe, expect, it } from 'vitest';
import { clientOf, fnInput, keyOf, useEmulator } from './helpers.ts';

const emulator = useEmulator({ pageSize: 2 });

describe('platform client against the emulator', () => {
  it('creates a contact and lists it back', async () => {
    const { client } = clientOf(emulator.current);
    const contact = await client.contacts.create({ name: 'Ada Lovelace', phone: '+14155550123', channel: 'whatsapp' });
    expect(contact.id).toMatch(/\S/);
    expect(contact).toMatchObject({ name: 'Ada Lovelace', phone: '+14155550123', channel: 'whatsapp' });
    const contacts = await client.contacts.list();
    expect(contacts.map((c) => c.id)).toContain(contact.id);
  });

  it('sends a message to a contact on a connected channel', async () => {
    const { client } = clientOf(emulator.current);
    const contact = await client.contacts.create({ name: 'Grace', phone: '+447700900123', channel: 'whatsapp' });
    const message = await client.messages.send({
      contactId: contact.id,
      channel: 'email',
      text: 'Your quote is ready.',
    });
    expect(message).toMatchObject({ contactId: contact.id, channel: 'email', text: 'Your quote is ready.' });
    expect(message.id).toMatch(/\S/);
  });

  it('registers a webhook and reads, rotates and deletes its signing secret', async () => {
    const { client } = clientOf(emulator.current);
    const webhook = await client.webhooks.create({ url: 'https://hooks.example.com/in', events: ['message.received'] });
    expect(webhook).toMatchObject({ url: 'https://hooks.example.com/in', events: ['message.received'] });
    expect(webhook).not.toHaveProperty('secret');
    const first = await client.webhooks.signingSecret.get(webhook.id);
    expect(first).toEqual({ webhookId: webhook.id, secret: expect.stringMatching(/^whsec_/) });
    const rotated = await client.webhooks.signingSecret.rotate(webhook.id);
    expect(rotated.secret).not.toBe(first.secret);
    expect((await client.webhooks.signingSecret.get(webhook.id)).secret).toBe(rotated.secret);
    await client.webhooks.signingSecret.delete(webhook.id);
    await expect(client.webhooks.signingSecret.get(webhook.id)).rejects.toMatchObject({ name: 'NotFoundError' });
  });

  it('creates, updates, lists and deletes custom functions', async () => {
    const { client } = clientOf(emulator.current, { plan: 'agency' });
    const created = await client.customFunctions.create(fnInput('quote_plan'));
    expect(created).toEqual({ id: expect.any(String), ...fnInput('quote_plan') });
    const updated = await client.customFunctions.update(created.id, {
      description: 'Quotes a price. Call it on request.',
    });
    expect(updated).toMatchObject({
      id: created.id,
      name: 'quote_plan',
      description: 'Quotes a price. Call it on request.',
    });
    expect(await client.customFunctions.list()).toEqual([updated]);
    await client.customFunctions.delete(created.id);
    expect(await client.customFunctions.list()).toEqual([]);
  });

  it('follows every page of the custom-function list', async () => {
    const { client, attempts } = clientOf(emulator.current, { plan: 'agency_unlimited' });
    const names = ['a_one', 'a_two', 'a_three', 'a_four', 'a_five'];
    for (const name of names) await client.customFunctions.create(fnInput(name));
    attempts.length = 0;
    const listed = await client.customFunctions.list();
    expect(listed.map((fn) => fn.name)).toEqual(names);
    expect(attempts.filter((a) => a.method === 'GET')).toHaveLength(3);
  });

  it('provisions a sub-account on an Agency plan', async () => {
    const { client } = clientOf(emulator.current, { plan: 'agency' });
    const sub = await client.subAccounts.create({ name: 'Client Co', adminEmail: 'owner@client.example' });
    expect(sub).toMatchObject({ name: 'Client Co', adminEmail: 'owner@client.example', extra: false });
  });

  it.each(['header', 'bearer', 'query'] as const)(
    'sends the key as the %s placement the spec allows',
    async (keyPlacement) => {
      const client = createPlatformClient({
        baseUrl: emulator.current.url,
        apiKey: keyOf(emulator.current),
        keyPlacement,
      });
      await expect(client.contacts.list()).resolves.toEqual(expect.any(Array));
    },
  );

  it('accepts a base URL that ends in /v1 or a slash', async () => {
    for (const baseUrl of [`${emulator.current.url}/`, `${emulator.current.url}/v1`]) {
      const client = createPlatformClient({ baseUrl, apiKey: keyOf(emulator.current) });
      await expect(client.contacts.list()).resolves.toEqual(expect.any(Array));
    }
  });

  it('never puts the query-placed key in what onRequest reports', async () => {
    const { client, attempts } = clientOf(emulator.current, { keyPlacement: 'query' });
    await client.contacts.list();
    expect(attempts.length).toBeGreaterThan(0);
    for (const attempt of attempts) expect(JSON.stringify(attempt)).not.toContain(keyOf(emulator.current));
  });
});
