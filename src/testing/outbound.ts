// Intercepts the Worker's outbound fetch() in workerd tests: a third-party API (a store, the
// platform) answers from handlers the test gives, and every request is kept for assertions.
// An unrouted request fails loudly, so a test can never reach the real network by accident.
import { vi } from 'vitest';

/** Answers one intercepted request; `request.signal` is the caller's abort signal. */
export type OutboundHandler = (request: Request) => Response | Promise<Response>;

/** The routes and the log of one test's outbound traffic. */
export interface Outbound {
  /** Routes `method` (or '*') requests whose url starts with `url` (or matches it) to `handler`. */
  on(method: string, url: string | RegExp, handler: OutboundHandler): Outbound;
  /** Every intercepted request, in order, with its body still readable. */
  readonly requests: Request[];
  /** Puts the real fetch back. */
  restore(): void;
}

/**
 * Replaces globalThis.fetch until `restore()`; later routes win over earlier ones.
 * @example const store = mockOutbound().on('GET', 'https://store.test/orders/', () => Response.json(order));
 */
export const mockOutbound = (): Outbound => {
  const routes: Array<{ method: string; url: string | RegExp; handler: OutboundHandler }> = [];
  const requests: Request[] = [];
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    requests.push(request.clone());
    const route = routes.findLast(
      (r) =>
        (r.method === '*' || r.method === request.method) &&
        (typeof r.url === 'string' ? request.url.startsWith(r.url) : r.url.test(request.url)),
    );
    if (!route) throw new TypeError(`Unmocked outbound request: ${request.method} ${request.url}`);
    return route.handler(request);
  });
  const outbound: Outbound = {
    on(method, url, handler) {
      routes.push({ method, url, handler });
      return outbound;
    },
    requests,
    restore: () => spy.mockRestore(),
  };
  return outbound;
};

/** A handler that never answers: it rejects only when the caller aborts, as a hung server would. */
export const hang: OutboundHandler = (request) =>
  new Promise((_, reject) => {
    if (request.signal.aborted) reject(request.signal.reason);
    request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true });
  });
