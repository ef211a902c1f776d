import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import type { Env } from 'agent-functions';
import { createPlatformClient } from 'agent-functions/platform';
import { forgetSigningSecrets, queued, signedDelivery } from 'agent-functions/testing';
import { PLATFORM_URL as PLATFORM } from 'agent-functions-cli/platform';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isOptedOut, sendToCustomer } from '../../lib/optOuts.ts';
import { eventsPlatform, FIRST_ACCOUNT, servedEvents } from '../helpers.ts';

const served = servedEvents();

let n = 0;
const appointment = (overrides: Record<string, unknown> = {}) => ({
  id: `apt_${Date.now()}_${++n}`,
  contactId: `ct_${Date.now()}_${n}`,
  startsAt: '2026-12-01T10:30:00Z',
  ...overrides,
});
const inbound = (contactId: string, text: string) => ({
  message: { id: `msg_${++n}`, contactId, text, channel: 'whatsapp' },
});

describe('the example events', () => {
  let platform: ReturnType<typeof eventsPlatform>;
  beforeEach(() => {
    forgetSigningSecrets();
    platform = eventsPlatform();
  });
  afterEach(() => platform.outbound.restore());

  describe('appointment.booked', () => {
    it('sends the customer one confirmation with the local date and time', async () => {
      const booked = appointment();
      const result = await served.consume([queued('appointment.booked', { appointment: booked })]);
      expect(result.explicitAcks).toEqual(['msg-0']);
      expect(platform.messages).toEqual([
        {
          id: expect.stringMatching(/^msg_/),
          contactId: booked.contactId,
          channel: 'whatsapp',
          text: 'Your appointment on Tuesday, 1 December 2026 at 10:30 is confirmed. Reply here if you need to change it.',
        },
      ]);
    });

    it('sends one confirmation per booking when the event arrives twice, even under a new delivery id', async () => {
      const booked = appointment();
      await served.consume([queued('appointment.booked', { appointment: booked }, 'evt_a')]);
      await served.consume([queued('appointment.booked', { appointment: booked }, 'evt_a')]);
      await served.consume([queued('appointment.booked', { appointment: booked }, 'evt_b')]);
      expect(platform.messages).toHaveLength(1);
    });

    it('retries when the platform fails, and confirms once it is back', async () => {
      const booked = appointment();
      platform.outbound.on('POST', `${PLATFORM}/v1/messages`, () => new Response('down', { status: 400 }));
      const failed = await served.consume([queued('appointment.booked', { appointment: booked }, 'evt_retry')]);
      expect(failed.retryMessages).toEqual([{ msgId: 'msg-0' }]);
      platform.outbound.restore();
      platform = eventsPlatform();
      await served.consume([queued('appointment.booked', { appointment: booked }, 'evt_retry')], undefined, 2);
      expect(platform.messages).toHaveLength(1);
    });
  });

  // A delivery queued here names no account, as one to /events (the last test): both act in the
  // first account, under its own name (FIRST_ACCOUNT), whatever platform.accounts.json names it.
  describe('message.received', () => {
    it('records a customer who writes STOP, and nothing then messages them', async () => {
      const booked = appointment();
      await served.consume([queued('message.received', inbound(booked.contactId, ' Stop! '))]);
      expect(await isOptedOut(env as Env, FIRST_ACCOUNT.name, booked.contactId)).toBe(true);
      await served.consume([queued('appointment.booked', { appointment: booked })]);
      const client = createPlatformClient({ baseUrl: PLATFORM, apiKey: 'k' });
      expect(
        await sendToCustomer(
          { env: env as Env, platform: client, account: FIRST_ACCOUNT },
          { ...booked, channel: 'whatsapp', text: 'Offer!' },
        ),
      ).toEqual({
        sent: false,
        reason: 'opted_out',
      });
      expect(platform.messages).toEqual([]);
    });

    it('lets a customer who writes START be messaged again', async () => {
      const booked = appointment();
      await served.consume([queued('message.received', inbound(booked.contactId, 'STOP'))]);
      await served.consume([queued('message.received', inbound(booked.contactId, 'start'))]);
      await served.consume([queued('appointment.booked', { appointment: booked })]);
      expect(platform.messages).toHaveLength(1);
    });

    it("keeps each platform account's consent apart: one account's STOP or START never reaches another's customer", async () => {
      // Nothing says contact ids are unique across accounts: the same id in two accounts is two customers.
      const booked = appointment();
      const inOther = (text: string) => ({
        ...queued('message.received', inbound(booked.contactId, text)),
        account: 'other',
      });
      await served.consume([inOther('STOP')]);
      await served.consume([queued('appointment.booked', { appointment: booked })]);
      expect(platform.messages).toHaveLength(1);

      const second = appointment();
      await served.consume([queued('message.received', inbound(second.contactId, 'STOP'))]);
      await served.consume([{ ...queued('message.received', inbound(second.contactId, 'START')), account: 'other' }]);
      await served.consume([queued('appointment.booked', { appointment: second })]);
      expect(platform.messages).toHaveLength(1);
    });

    it('keeps honouring a STOP recorded before consent was kept per account, until that account hears START', async () => {
      const booked = appointment();
      // As the list stored a STOP before: one instance per contact id, whatever the account.
      const legacy = (env as Env).OPT_OUTS?.getByName(booked.contactId);
      if (!legacy) throw new Error('wrangler.toml binds no OPT_OUTS');
      await runInDurableObject(legacy, (_, state) => state.storage.put('optedOut', Date.now()));
      expect(await isOptedOut(env as Env, FIRST_ACCOUNT.name, booked.contactId)).toBe(true);
      expect(await isOptedOut(env as Env, 'other', booked.contactId)).toBe(true);
      await served.consume([queued('message.received', inbound(booked.contactId, 'START'))]);
      expect(await isOptedOut(env as Env, FIRST_ACCOUNT.name, booked.contactId)).toBe(false);
      expect(await isOptedOut(env as Env, 'other', booked.contactId)).toBe(true);
    });

    it('leaves a customer who merely mentions stopping alone', async () => {
      const contactId = appointment().contactId;
      await served.consume([queued('message.received', inbound(contactId, 'Can I stop by tomorrow?'))]);
      expect(await isOptedOut(env as Env, FIRST_ACCOUNT.name, contactId)).toBe(false);
    });
  });

  it('runs the whole path in workerd: a signed delivery to the endpoint, the real queue, the Worker’s consumer, the handler', async () => {
    const contactId = appointment().contactId;
    const body = { id: `evt_e2e_${n}`, type: 'message.received', data: inbound(contactId, 'STOP') };
    // The endpoint puts it on the EVENTS_QUEUE binding; miniflare hands it to the Worker's own queue handler.
    const response = await served.fetch(await signedDelivery(body, 'whsec_first'));
    expect(response.status).toBe(202);
    await vi.waitFor(async () => expect(await isOptedOut(env as Env, FIRST_ACCOUNT.name, contactId)).toBe(true), {
      timeout: 10_000,
      interval: 100,
    });
  });
});
