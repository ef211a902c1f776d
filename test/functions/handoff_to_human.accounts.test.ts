// handoff_to_human serving two client businesses from one Worker (test/twoAccounts.ts): each hands
// off to its own team, on its own platform, with its own key.
import { reset } from 'cloudflare:test';
import { errorOf, mockOutbound, type Outbound } from 'agent-functions/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agency, CLIENT_B, clientB, clientC, environment } from '../twoAccounts.ts';

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

describe('handoff_to_human for two client businesses on one Worker', () => {
  it("hands off to each business's own team, with its own key", async () => {
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

  it("never reaches the first business's team through its Worker-wide variables", async () => {
    const handoff = {
      summary: 'The customer wants to change the delivery address of order 10452.',
      reason: 'customer_asked',
    };
    const refused = await clientC.call('handoff_to_human', handoff);
    expect(refused.status).toBe(503);
    expect((await errorOf(refused)).code).toBe('not_configured');
    expect(sent).toEqual([]);
    // The first business still hands off to the Worker's team inbox.
    expect((await agency.call('handoff_to_human', handoff)).status).toBe(200);
    expect(sent).toEqual([
      { origin: 'https://platform.test', key: environment.PLATFORM_API_KEY, contactId: 'ct_team', channel: 'whatsapp' },
    ]);
  });
});
