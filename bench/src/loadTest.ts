// One closed-loop load run: autocannon keeps `connections` requests in flight for `seconds`;
// latencies are recorded from its per-response event in float milliseconds (its own histogram
// keeps whole milliseconds, too coarse for sub-millisecond loopback calls).
import autocannon from 'autocannon';
import { percentile } from './stats.ts';

/** What one load run measured. */
export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  responses: number;
  /** Responses whose status was not the expected one, plus connection errors and timeouts. */
  unexpected: number;
}

/** One request shape to send, and the status it must get. */
export interface LoadTarget {
  url: string;
  body: string;
  expectStatus: number;
  /** Headers beside content-type (a signed call's signature). */
  headers?: Record<string, string>;
  /** A fresh body per request (the n-th), instead of `body` every time. */
  bodyOf?: (n: number) => string;
}

/**
 * Drives `target` with `connections` concurrent requests for `seconds`.
 * @example await loadTest({ url, body: '{}', expectStatus: 422 }, { connections: 10, seconds: 3 })
 */
export const loadTest = async (
  target: LoadTarget,
  options: { connections: number; seconds: number; amount?: number },
): Promise<LoadResult> => {
  let sent = 0;
  const { bodyOf } = target;
  const latencies: number[] = [];
  let unexpected = 0;
  // The callback form returns the running instance, whose events carry each response.
  let settle: (value: autocannon.Result) => void = () => {};
  let fail: (error: unknown) => void = () => {};
  const finished = new Promise<autocannon.Result>((resolve, reject) => {
    settle = resolve;
    fail = reject;
  });
  const instance = autocannon(
    {
      url: target.url,
      method: 'POST',
      body: target.body,
      headers: { 'content-type': 'application/json', ...target.headers },
      connections: options.connections,
      ...(options.amount ? { amount: options.amount } : { duration: options.seconds }),
      timeout: 10,
      ...(bodyOf ? { requests: [{ setupRequest: (request: object) => ({ ...request, body: bodyOf(sent++) }) }] } : {}),
    },
    (error, result) => (error ? fail(error) : settle(result)),
  );
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    latencies.push(responseTime);
    if (statusCode !== target.expectStatus) unexpected++;
  });
  const result = await finished;
  unexpected += result.errors + result.timeouts;
  return {
    requestsPerSecond: latencies.length / result.duration,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    responses: latencies.length,
    unexpected,
  };
};
