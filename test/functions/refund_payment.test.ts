import { introspectWorkflow } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { errorOf, ORIGIN, queued, send } from 'agent-functions/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callWith, eventsPlatform, FIRST_ACCOUNT, platformEnv, servedEvents } from '../helpers.ts';

const REFUNDS = 'https://store.test/api/orders/10452/refunds';
const settings = platformEnv({ STORE_API_URL: 'https://store.test/api', STORE_API_KEY: 'test-store-key' });
let conversations = 0;
// Each conversation's customer a contact of her own: a contact's follow-ups are bounded (docs/security.md).
const refund = (amountEuros: number, environment = settings) =>
  callWith(
    'refund_payment',
    {
      orderNumber: '10452',
      amountEuros,
      reason: 'the mug arrived broken',
      contactId: `ct_vera_${++conversations}`,
      conversationId: `cv_refund_${conversations}`,
      channel: 'whatsapp',
    },
    environment,
  );

let platform: ReturnType<typeof eventsPlatform>;
let refunds: unknown[];
beforeEach(() => {
  refunds = [];
  platform = eventsPlatform();
  platform.outbound.on('POST', REFUNDS, async (request) => {
    refunds.push(await request.clone().json());
    return Response.json({ id: `re_${refunds.length}` }, { status: 201 });
  });
});
afterEach(() => platform.outbound.restore());

const toTeam = () => platform.messages.filter((m) => m.contactId === 'ct_team');
const toCustomer = () => platform.messages.filter((m) => m.contactId.startsWith('ct_vera'));

/** Runs `work` and waits for every approval it started to finish. */
const approvals = async (work: () => Promise<void>) => {
  const workflows = await introspectWorkflow((env as { APPROVALS: Workflow }).APPROVALS);
  try {
    await work();
    for (const instance of await workflows.get()) await instance.waitForStatus('complete');
  } finally {
    await workflows.dispose();
  }
};

describe('refund_payment', () => {
  it('refunds up to 100 EUR at once, asking nobody', async () => {
    const response = await refund(12);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ refunded: true, refundId: 're_1' });
    expect(refunds).toEqual([{ amountCents: 1_200, reason: 'the mug arrived broken' }]);
    expect(toTeam()).toEqual([]);
  });

  it('above 100 EUR asks the team, and refunds once approved from the link, telling the customer once', async () => {
    await approvals(async () => {
      const response = await refund(120);
      expect(await response.json()).toMatchObject({ status: 'pending_approval' });
      expect(refunds).toEqual([]);
      const [ask] = toTeam();
      expect(ask?.text).toContain('Refund €120.00 on order 10452? Reason given: the mug arrived broken');
      const link = /\/approvals\/\S+/.exec(ask?.text ?? '')?.[0] ?? '';
      const page = await (await send(link)).text();
      const pageToken = /name="page" value="([^"]+)"/.exec(page)?.[1] ?? '';
      const decided = await send(link, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
        body: new URLSearchParams({ decision: 'approve', page: pageToken }).toString(),
      });
      expect(decided.status).toBe(200);
    });
    expect(refunds).toEqual([{ amountCents: 12_000, reason: 'the mug arrived broken' }]);
    expect(toCustomer().map((m) => m.text)).toEqual([
      '€120.00 has been refunded on order 10452; it reaches the original payment method within 5 working days.',
    ]);
  });

  it('the team denies by replying "deny <code>": no refund, and the customer is told once', async () => {
    const served = servedEvents();
    await approvals(async () => {
      await refund(450);
      const code = /\(([A-Z0-9]{4})\)/.exec(toTeam()[0]?.text ?? '')?.[1] ?? '';
      // The team's reply arrives at the first account's events endpoint, as the approval was asked there.
      const reply = queued('message.received', {
        message: { id: 'msg_deny', contactId: 'ct_team', text: `deny ${code}` },
      });
      await served.consume([{ ...reply, account: FIRST_ACCOUNT.name }]);
    });
    expect(refunds).toEqual([]);
    expect(toCustomer().map((m) => m.text)).toEqual([expect.stringContaining('could not approve it')]);
  });

  it('counts against FUNCTION_RATE_LIMIT: over it, a 429 and nothing is refunded', async () => {
    const full = { limit: async () => ({ success: false }) } as RateLimit;
    const response = await refund(12, { ...settings, FUNCTION_RATE_LIMIT: full });
    expect(response.status).toBe(429);
    expect((await errorOf(response)).code).toBe('rate_limited');
    expect(refunds).toEqual([]);
  });

  it('without a team inbox, a large refund is not available now and nothing is refunded', async () => {
    const response = await callWith(
      'refund_payment',
      {
        orderNumber: '10452',
        amountEuros: 200,
        reason: 'broken',
        contactId: 'ct_vera',
        conversationId: 'cv_x',
        channel: 'whatsapp',
      },
      { ...settings, HANDOFF_CONTACT_ID: undefined } as typeof settings,
    );
    expect(response.status).toBe(503);
    expect((await errorOf(response)).code).toBe('approval_unavailable');
    expect(refunds).toEqual([]);
  });
});
