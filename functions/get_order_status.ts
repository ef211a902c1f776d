import { defineFunction, FunctionError, safeEqual } from 'agent-functions';
import { z } from 'zod';
import { emailSchema, normalizeEmail, orderNumberSchema } from '../lib/customer.ts';
import { storeOf } from '../lib/store.ts';

// The store's API as this example assumes it: GET {STORE_API_URL}/orders/{number} with
// "Authorization: Bearer {STORE_API_KEY}", answering the order below or 404. Adapt these lines
// (the path, the header, the schema and STATUS_WORDS) to your store; the rest stays the same.
const orderUrl = (base: string, number: string) => `${base.replace(/\/+$/, '')}/orders/${encodeURIComponent(number)}`;
const storeOrder = z.object({
  number: z.string(),
  email: z.string(),
  status: z.string(),
  items: z.array(z.object({ name: z.string(), quantity: z.number() })).default([]),
  shipment: z
    .object({
      carrier: z.string().nullish(),
      trackingNumber: z.string().nullish(),
      trackingUrl: z.string().nullish(),
      estimatedDelivery: z.string().nullish(),
    })
    .nullish(),
});
const STATUS_WORDS: Record<string, string> = {
  pending: 'received and waiting for payment',
  paid: 'paid and being prepared',
  processing: 'being prepared',
  shipped: 'on its way',
  delivered: 'delivered',
  cancelled: 'cancelled',
  refunded: 'refunded',
};

/** Shorter than the function's own limit, so a slow store gets a polite answer, not a 504. */
const STORE_TIMEOUT_MS = 4_000;

/** The function's own limit: the in-call look-up answers within the store's limit; deferred work may wait longer. */
const DEFERRED_TIMEOUT_MS = 20_000;

/** The store's time limit: STORE_TIMEOUT_MS when set to a shorter whole number (tests), else the default. */
const storeTimeoutMs = (env: object): number => {
  const set = Number((env as { STORE_TIMEOUT_MS?: string }).STORE_TIMEOUT_MS);
  return Number.isInteger(set) && set > 0 && set < STORE_TIMEOUT_MS ? set : STORE_TIMEOUT_MS;
};
/** An order is a few kilobytes; anything much bigger is not an order. */
const MAX_STORE_BODY = 256 * 1024;

const NO_MATCH =
  'No order matches that order number and email address. Ask the customer to check both (the order number is in their confirmation email) and try again; do not guess either one.';

const unavailable = (why: string) =>
  new FunctionError(
    502,
    'store_unavailable',
    `The order system could not be reached just now (${why}). Apologise, tell the customer you cannot look the order up at the moment, and offer to try again in a few minutes or to pass them to a colleague.`,
  );

export default defineFunction({
  description:
    "Looks up the status of the customer's order in the shop: whether it is being prepared, on its way (with the carrier and tracking) or delivered. Call it when the customer asks where their order is. It needs both the order number and the email address the order was placed with. Not for a complaint about an order: use handoff_to_human.",
  parameters: z.object({
    orderNumber: orderNumberSchema('The order number from the confirmation email, like "10452" or "#10452"'),
    email: emailSchema('The email address the order was placed with'),
  }),
  secrets: ['STORE_API_KEY'],
  vars: ['STORE_API_URL'],
  // Reads the store's API.
  annotations: { readOnlyHint: true, openWorldHint: true },
  // A slow store: past 2.5 s the agent hears the interim answer, and the customer gets the status as a
  // message when the store answers (the look-up goes on, retried, as deferred work).
  timeoutMs: DEFERRED_TIMEOUT_MS,
  handler: async ({ orderNumber, email }, context) => {
    const { env, signal, log, deferred } = context;
    // Each client business has its own store.
    const { url: storeUrl, key: storeKey } = storeOf(
      context,
      'Order look-up is not set up yet. Tell the customer you cannot check orders right now and offer to pass them to a colleague.',
    );
    const number = orderNumber.replace(/^#/, '');
    let response: Response;
    try {
      response = await fetch(orderUrl(storeUrl, number), {
        headers: { authorization: `Bearer ${storeKey}`, accept: 'application/json' },
        // A redirect could carry the key to another host: a store API should not need one.
        redirect: 'manual',
        // Deferred work has no agent waiting: it gives the store until the function's own limit.
        signal: deferred ? signal : AbortSignal.any([signal, AbortSignal.timeout(storeTimeoutMs(env))]),
      });
    } catch (error) {
      // The function's own limit passed: the runtime answers 504 itself.
      if (signal.aborted) throw error;
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      log.warn('store_failed', { reason: timedOut ? 'timeout' : 'network' });
      if (timedOut) {
        throw new FunctionError(
          504,
          'store_timeout',
          'The order system is taking too long to answer. Apologise, tell the customer you cannot see the order right now, and offer to try again in a few minutes.',
        );
      }
      throw unavailable('a network error');
    }
    if (response.status === 404) throw new FunctionError(404, 'order_not_found', NO_MATCH);
    if (!response.ok) {
      log.warn('store_failed', { reason: 'status', status: response.status });
      throw unavailable(`it answered ${response.status}`);
    }
    const text = await response.text();
    let parsed: z.infer<typeof storeOrder>;
    try {
      if (text.length > MAX_STORE_BODY) throw new Error('too large');
      parsed = storeOrder.parse(JSON.parse(text));
    } catch {
      log.warn('store_failed', { reason: 'unexpected_answer' });
      throw unavailable('it gave an answer that could not be read');
    }
    // The same answer for a wrong email as for an unknown number, so the pair cannot be probed.
    const sameOrder = parsed.number.replace(/^#/, '').toLowerCase() === number.toLowerCase();
    if (!sameOrder || !(await safeEqual(normalizeEmail(parsed.email), normalizeEmail(email)))) {
      throw new FunctionError(404, 'order_not_found', NO_MATCH);
    }
    const status = STATUS_WORDS[parsed.status] ?? parsed.status.slice(0, 40);
    const items = parsed.items.map((i) => `${i.quantity} × ${i.name}`).join(', ');
    const ship = parsed.shipment;
    const tracking = [
      ship?.carrier ? `with ${ship.carrier}` : '',
      ship?.trackingNumber ? `tracking number ${ship.trackingNumber}` : '',
      ship?.estimatedDelivery ? `expected ${ship.estimatedDelivery}` : '',
    ].filter(Boolean);
    return {
      found: true,
      orderNumber: parsed.number,
      status: parsed.status,
      items,
      carrier: ship?.carrier ?? null,
      trackingNumber: ship?.trackingNumber ?? null,
      trackingUrl: ship?.trackingUrl ?? null,
      estimatedDelivery: ship?.estimatedDelivery ?? null,
      summary: `Order ${parsed.number} is ${status}${tracking.length ? `, ${tracking.join(', ')}` : ''}.${items ? ` It contains ${items}.` : ''}`,
    };
  },
  // After the handler, so the result's type is known to `message`.
  later: {
    answerWithinMs: 2_500,
    interim:
      'The order system is slow right now. Tell the customer you are checking with the warehouse and will send the status here in a minute; do not call this function again for this order.',
    message: (order) => order.summary,
    failure: (refusal) =>
      refusal?.code === 'order_not_found'
        ? 'I could not find an order with that number and email address. Please check both in your confirmation email and send them again.'
        : 'Sorry, I could not reach the order system to check your order. Please ask again in a little while, or ask for a colleague.',
  },
});
