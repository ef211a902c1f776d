// The latency of one call against another's, call by call: one request in flight at a time, sent
// to each Worker in turn (a, b, then b, a), over one kept-alive connection each. A pair's two calls
// run a millisecond apart, so whatever the shared machine does falls on both; a closed loop at
// saturation (loadTest.ts) reads throughput instead, and its rounds move by +-20% here. Calls are
// grouped in blocks: each block gives each side's p50, so the ratio rows read blocks as rounds.
import { Agent, request } from 'node:http';
import type { LoadTarget } from './loadTest.ts';
import { percentile } from './stats.ts';

/** Each side's p50 per block, in ms. */
export interface AlternateResult {
  a: number[];
  b: number[];
}

/** One POST of `target` on `agent`, timed in ms; rejects on a status other than the expected one. */
const timedCall = (target: LoadTarget, agent: Agent): Promise<number> =>
  new Promise((resolve, reject) => {
    const started = performance.now();
    const sent = request(
      target.url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(target.body),
          ...target.headers,
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => {
          const ms = performance.now() - started;
          if (response.statusCode === target.expectStatus) resolve(ms);
          else reject(new Error(`${target.url} answered ${response.statusCode}, not ${target.expectStatus}`));
        });
      },
    );
    sent.setTimeout(10_000, () => sent.destroy(new Error(`${target.url} did not answer within 10 s`)));
    sent.on('error', reject);
    sent.end(target.body);
  });

/**
 * Calls `a` and `b` in turn, `pairs` pairs per block for `blocks` blocks, after `warmupPairs`
 * pairs not counted; returns each side's p50 per block.
 * @example const { a, b } = await alternateCalls(off, on, { blocks: 24, pairs: 500, warmupPairs: 2000 })
 */
export const alternateCalls = async (
  a: LoadTarget,
  b: LoadTarget,
  options: { blocks: number; pairs: number; warmupPairs: number },
): Promise<AlternateResult> => {
  const agents = { a: new Agent({ keepAlive: true, maxSockets: 1 }), b: new Agent({ keepAlive: true, maxSockets: 1 }) };
  const call = { a: () => timedCall(a, agents.a), b: () => timedCall(b, agents.b) };
  const result: AlternateResult = { a: [], b: [] };
  try {
    for (let i = 0; i < options.warmupPairs; i++) {
      await call.a();
      await call.b();
    }
    for (let block = 1; block <= options.blocks; block++) {
      const latencies: { a: number[]; b: number[] } = { a: [], b: [] };
      for (let i = 0; i < options.pairs; i++) {
        // Each side goes first as often as second.
        const order = i % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const);
        for (const side of order) latencies[side].push(await call[side]());
      }
      result.a.push(percentile(latencies.a, 50));
      result.b.push(percentile(latencies.b, 50));
    }
  } finally {
    agents.a.destroy();
    agents.b.destroy();
  }
  return result;
};
