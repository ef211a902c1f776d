// The worked example of docs/testing.md, "Testing conversations": get_order_status's deferred call
// answered at once and finished by its workflow, and its failure message after the retries. The
// conversation keys are what the platform adds beside the arguments.
import { call, conversation, mockOutbound, type Outbound, settleDeferred } from 'agent-functions/testing';
import { messagesOf, seedContact, usePlatform } from 'agent-functions-cli/platform';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// The store's address is a setting the deferred work reads too, so it is a binding of the tests'
// Worker (test/bindings.ts), not a value passed with one call.
const STORE = 'https://store.test/api/orders/';
const order = {
  number: '10452',
  email: 'ann@example.com',
  status: 'processing',
  items: [{ name: 'Mug', quantity: 1 }],
};
const ann = conversation('ct_ann');
// Another customer: a repeat of ann's call in her conversation would share her first call's follow-up.
const cy = conversation('ct_cy');
const slowly = <T>(value: T, ms: number) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

let outbound: Outbound;
let platform: ReturnType<typeof usePlatform>;
beforeEach(() => {
  outbound = mockOutbound();
  platform = usePlatform(outbound);
  // A follow-up goes to a contact the platform knows: an unknown one is a 422, retried, then logged.
  seedContact(platform, { id: ann.contactId, name: 'Ann', phone: '+447700900123', channel: ann.channel });
  seedContact(platform, { id: cy.contactId, name: 'Cy', phone: '+447700900124', channel: cy.channel });
});
afterEach(() => outbound.restore());

describe('a deferred call', () => {
  it('answers the agent at once, and its workflow messages the customer the result', async () => {
    let lookups = 0;
    // The call's own look-up is slower than answerWithinMs (100 ms here); the workflow's answers at once.
    outbound.on('GET', STORE, () => (++lookups === 1 ? slowly(Response.json(order), 1_000) : Response.json(order)));
    const { result: response, outcomes } = await settleDeferred(
      () => call('get_order_status', { orderNumber: '10452', email: 'ann@example.com', ...ann }),
      { answerWithinMs: 100 },
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'pending' });
    expect(outcomes).toEqual([{ work: 'done', message: 'sent' }]);
    expect(messagesOf(platform)).toEqual([
      expect.objectContaining({ contactId: 'ct_ann', text: expect.stringContaining('10452') }),
    ]);
  });

  it('sends the failure message when every attempt fails, without the real retry delays', async () => {
    let lookups = 0;
    outbound.on('GET', STORE, () =>
      ++lookups === 1 ? slowly(new Response('down', { status: 503 }), 1_000) : new Response('down', { status: 503 }),
    );
    const started = Date.now();
    const { outcomes } = await settleDeferred(
      () => call('get_order_status', { orderNumber: '10452', email: 'ann@example.com', ...cy }),
      { answerWithinMs: 100 },
    );
    expect(outcomes).toEqual([{ work: 'failed', message: 'sent' }]);
    // The first attempt and 4 retries; with real delays (5, 10, 20, 40 s) this takes over a minute.
    expect(lookups).toBe(1 + 5);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(messagesOf(platform)).toHaveLength(1);
  });

  it('gives up on a follow-up to a contact the platform does not hold (422, retried, then logged)', async () => {
    let lookups = 0;
    outbound.on('GET', STORE, () => (++lookups === 1 ? slowly(Response.json(order), 1_000) : Response.json(order)));
    const { outcomes } = await settleDeferred(
      () => call('get_order_status', { orderNumber: '10452', email: 'ann@example.com', ...conversation('ct_nobody') }),
      { answerWithinMs: 100 },
    );
    expect(outcomes).toEqual([{ work: 'done', message: 'failed' }]);
    expect(messagesOf(platform)).toEqual([]);
  });
});
