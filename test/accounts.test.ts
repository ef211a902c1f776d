// The examples serve several client businesses from one Worker: each call acts in its account
// (docs/sync-and-accounts.md "Which account a call acts in"), with that account's settings, its
// own calendar and its own team.
import { reset } from 'cloudflare:test';
import { serveAccounts } from 'agent-functions/accounts';
import { withApproval } from 'agent-functions/approval';
import { conversationFeatures } from 'agent-functions/conversations';
import { platformFromEnv } from 'agent-functions/platform';
import { errorOf, mockOutbound, type Outbound, withEnv } from 'agent-functions/testing';
import { createWorker } from 'agent-functions/worker';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { functions } from '../generated/functions.ts';
import { mayMessage } from '../lib/optOuts.ts';
import { teamContactOf } from '../lib/team.ts';
import { customer, futureDay, startAt } from './functions/calendar.ts';
import { platformEnv } from './helpers.ts';

const CLIENT_B = 'https://b.platform.test';
const CLIENT_C = 'https://c.platform.test';
const worker = createWorker({
  functions,
  accounts: serveAccounts({
    list: [
      { name: 'default', apiKeyEnv: 'PLATFORM_API_KEY', baseUrlEnv: 'PLATFORM_BASE_URL' },
      {
        name: 'client-b',
        apiKeyEnv: 'CLIENT_B_KEY',
        baseUrl: CLIENT_B,
        settings: { handoffContactId: 'ct_team_b', handoffChannel: 'sms', timezone: 'Asia/Tokyo' },
      },
      // A client without a team inbox or a store of its own in its settings.
      { name: 'client-c', apiKeyEnv: 'CLIENT_C_KEY', baseUrl: CLIENT_C },
    ],
  }),
  platform: platformFromEnv,
  // The team worker.ts asks for approvals.
  conversations: withApproval(conversationFeatures, { teamContact: teamContactOf }),
  mayMessage,
});
const environment = platformEnv({
  CLIENT_B_KEY: 'key-of-b',
  CLIENT_C_KEY: 'key-of-c',
  STORE_API_URL: 'https://store.test/api',
  STORE_API_KEY: 'test-store-key',
});
const agency = withEnv(worker, environment);
const clientB = withEnv(worker, environment, 'client-b');
const clientC = withEnv(worker, environment, 'client-c');

let outbound: Outbound;
let sent: Array<{ origin: string; key: string | null; contactId: string; channel: string }>;
beforeEach(async () => {
  await reset();
  sent = [];
  outbound = mockOutbound().on('POST', /\/v1\/messages$/, async (request) => {
    const { contactId, channel } = (await request.json()) as { contactId: string; channel: string };
    sent.push({ origin: new URL(request.url).origin, key: request.headers.get('x-api-key'), contactId, channel });
    return Response.json({ id: `msg_${sent.length}` }, { status: 201 });
  });
});
afterEach(() => outbound.restore());

describe('two client businesses on one Worker', () => {
  it("keep their own calendars: one's booked slot is free in the other's", async () => {
    const start = startAt(futureDay(5), '10:00');
    const a = await agency.call('book_appointment', { start, ...customer(1) });
    const b = await clientB.call('book_appointment', { start, ...customer(2) });
    expect([a.status, b.status]).toEqual([200, 200]);
    const taken = await clientB.call('book_appointment', { start, ...customer(3) });
    expect(taken.status).toBe(409);
  });

  it("hand off to each business's own team, with its own key", async () => {
    const handoff = {
      summary: 'The customer wants to change the delivery address of order 10452.',
      reason: 'customer_asked',
    };
    expect((await agency.call('handoff_to_human', handoff)).status).toBe(200);
    expect((await clientB.call('handoff_to_human', handoff)).status).toBe(200);
    expect(sent).toEqual([
      { origin: 'https://platform.test', key: environment.PLATFORM_API_KEY, contactId: 'ct_team', channel: 'whatsapp' },
      { origin: CLIENT_B, key: 'key-of-b', contactId: 'ct_team_b', channel: 'sms' },
    ]);
  });

  it("never reach the first business's team or store through its Worker-wide variables", async () => {
    const handoff = {
      summary: 'The customer wants to change the delivery address of order 10452.',
      reason: 'customer_asked',
    };
    const refused = await clientC.call('handoff_to_human', handoff);
    expect(refused.status).toBe(503);
    expect((await errorOf(refused)).code).toBe('not_configured');
    const refund = await clientC.call('refund_payment', {
      orderNumber: '10452',
      amountEuros: 900,
      contactId: 'ct_c_customer',
      conversationId: 'cv_c',
      channel: 'whatsapp',
    });
    expect(refund.status).toBe(503);
    expect((await errorOf(refund)).code).toBe('approval_unavailable');
    const small = await clientC.call('refund_payment', { orderNumber: '10452', amountEuros: 20 });
    expect(small.status).toBe(503);
    expect((await errorOf(small)).code).toBe('not_configured');
    expect(sent).toEqual([]);
    expect(outbound.requests.filter((request) => request.url.startsWith('https://store.test'))).toEqual([]);
    // The first business still hands off to the Worker's team inbox.
    expect((await agency.call('handoff_to_human', handoff)).status).toBe(200);
    expect(sent).toEqual([
      { origin: 'https://platform.test', key: environment.PLATFORM_API_KEY, contactId: 'ct_team', channel: 'whatsapp' },
    ]);
  });

  it("answer opening hours in each business's own timezone", async () => {
    const response = await clientB.call('check_opening_hours', {});
    expect(await response.json()).toMatchObject({ timezone: 'Asia/Tokyo' });
    expect(await (await agency.call('check_opening_hours', {})).json()).toMatchObject({ timezone: 'Europe/London' });
  });
});
