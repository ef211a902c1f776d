// Alternating single calls (bench/src/alternateCalls.ts): against two local servers, one of them
// slower, it reads each side's p50 per block, never has two calls in flight, and turns a wrong
// status into an error.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { alternateCalls } from '../src/alternateCalls.ts';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A server answering `status` after `delayMs`, counting the calls in flight at once. */
const serve = async (delayMs: number, inFlight: { now: number; most: number }, status = 200) => {
  const server = createServer((request, response) => {
    inFlight.now++;
    inFlight.most = Math.max(inFlight.most, inFlight.now);
    request.resume();
    request.on('end', () =>
      setTimeout(() => {
        inFlight.now--;
        response.writeHead(status, { 'content-type': 'application/json' }).end('{}');
      }, delayMs),
    );
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, body: '{}', expectStatus: 200 };
};

describe('alternating single calls', () => {
  it("gives each side's p50 per block, one call in flight at a time", async () => {
    const inFlight = { now: 0, most: 0 };
    const fast = await serve(0, inFlight);
    const slow = await serve(8, inFlight);
    const blocks = await alternateCalls(fast, slow, { blocks: 3, pairs: 10, warmupPairs: 2 });
    expect(blocks.a).toHaveLength(3);
    expect(blocks.b).toHaveLength(3);
    for (let k = 0; k < 3; k++) {
      expect(blocks.b[k]).toBeGreaterThanOrEqual(8);
      expect(blocks.a[k]).toBeLessThan(blocks.b[k] as number);
    }
    expect(inFlight.most).toBe(1);
  });

  it('fails on an answer with another status than the expected one', async () => {
    const inFlight = { now: 0, most: 0 };
    const fine = await serve(0, inFlight);
    const refusing = await serve(0, inFlight, 422);
    await expect(alternateCalls(fine, refusing, { blocks: 1, pairs: 2, warmupPairs: 0 })).rejects.toThrow(
      /answered 422, not 200/,
    );
  });
});
