// A local stand-in for the shop's order API, so get_order_status answers under `npm run dev`
// without a real store (STORE_API_URL, STORE_API_KEY): GET /orders/{number} with
// "Authorization: Bearer {key}", the shape that example assumes (change both together), and
// POST /orders/{number}/refunds for refund_payment (answers { id }).
// dev.config.ts starts it; it runs on Node, never in the Worker.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The orders the stand-in knows; the README's walk-through uses the first one. */
export const SAMPLE_ORDERS = [
  {
    number: '10452',
    email: 'ada@example.com',
    status: 'shipped',
    items: [{ name: 'Kettle', quantity: 1 }],
    shipment: {
      carrier: 'DHL',
      trackingNumber: 'JD014600006281',
      trackingUrl: 'https://www.dhl.com/track?id=JD014600006281',
      estimatedDelivery: '2026-11-25',
    },
  },
  { number: '10453', email: 'grace@example.com', status: 'paid', items: [{ name: 'Teapot', quantity: 2 }] },
  // The warehouse takes 5 s for this one: get_order_status answers the interim within 2.5 s, and
  // the console shows the status reaching the customer as a message a little later.
  {
    number: '10454',
    email: 'alan@example.com',
    status: 'processing',
    items: [{ name: 'Mug', quantity: 4 }],
    slowMs: 5_000,
  },
];

export interface RunningStore {
  /** The value for STORE_API_URL. */
  url: string;
  /** The value for STORE_API_KEY: a key of this run only. */
  apiKey: string;
  close(): Promise<void>;
}

/**
 * Starts the stand-in on 127.0.0.1 (a free port unless one is given).
 * @example const store = await startOrderStore(); // store.url, store.apiKey
 */
export const startOrderStore = async (port = 0): Promise<RunningStore> => {
  const apiKey = randomBytes(18).toString('base64url');
  const server = createServer((request, response) => {
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (request.headers.authorization !== `Bearer ${apiKey}`) return send(401, { error: 'unauthorized' });
    const path = new URL(request.url ?? '/', 'http://store.invalid').pathname;
    const refunding = /^\/orders\/([^/]+)\/refunds$/.exec(path)?.[1];
    if (refunding !== undefined && request.method === 'POST') {
      // The body is not kept: the stand-in only says a refund was made.
      request.resume();
      const known = SAMPLE_ORDERS.some((o) => o.number === decodeURIComponent(refunding));
      return known ? send(201, { id: `re_${randomBytes(6).toString('hex')}` }) : send(404, { error: 'not_found' });
    }
    const number = /^\/orders\/([^/]+)$/.exec(path)?.[1];
    const order = SAMPLE_ORDERS.find((o) => o.number === decodeURIComponent(number ?? ''));
    if (!order || request.method !== 'GET') return send(404, { error: 'not_found' });
    const { slowMs, ...answer } = order as typeof order & { slowMs?: number };
    if (slowMs) setTimeout(() => send(200, answer), slowMs);
    else send(200, answer);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    apiKey,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
