// refund_payment serving several client businesses from one Worker (test/twoAccounts.ts): a client
// without a team inbox or a store of its own never reaches the first business's through the
// Worker-wide variables (docs/security.md).
import { reset } from 'cloudflare:test';
import { errorOf, mockOutbound, type Outbound } from 'agent-functions/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clientC, FIRST_STORE } from '../twoAccounts.ts';

let outbound: Outbound;
let messages: number;
beforeEach(async () => {
  await reset();
  messages = 0;
  outbound = mockOutbound().on('POST', /\/v1\/messages$/, () => {
    messages++;
    return Response.json({ id: `msg_${messages}` }, { status: 201 });
  });
});
afterEach(() => outbound.restore());

describe('refund_payment for a client business without a team or store of its own', () => {
  it("asks nobody and never calls the first business's store", async () => {
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
    expect(messages).toBe(0);
    expect(outbound.requests.filter((request) => request.url.startsWith(FIRST_STORE))).toEqual([]);
  });
});
