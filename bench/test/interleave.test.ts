// Side-by-side load runs (bench/src/interleave.ts): every case once per slice, the order flipped
// every slice, the slice handed to the case's target, and a wrong answer stopping the part.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { interleavedLoad, SLICES_PER_ROUND } from '../src/interleave.ts';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A server answering `status`, noting which case each request was for (its path). */
const serve = async (seen: string[], status = 200) => {
  const server = createServer((request, response) => {
    const path = request.url ?? '';
    if (seen.at(-1) !== path) seen.push(path);
    request.resume();
    request.on('end', () => response.writeHead(status).end('{}'));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

const settings = { rounds: 2, seconds: 0.2, connections: 2, warmupSeconds: 0.05 };

describe('side-by-side load runs', () => {
  it('runs every case once per slice, flipping the order every slice, and hands each its slice', async () => {
    const seen: string[] = [];
    const base = await serve(seen);
    const slicesAsked: number[] = [];
    const results = await interleavedLoad(
      ['a', 'b'] as const,
      (name, slice) => {
        if (name === 'a') slicesAsked.push(slice);
        return { url: `${base}/${name}`, body: '{}', expectStatus: 200 };
      },
      settings,
      'test',
    );
    const slices = settings.rounds * SLICES_PER_ROUND;
    expect(results.a).toHaveLength(slices);
    expect(results.b).toHaveLength(slices);
    expect(results.a.every((r) => r.responses > 0)).toBe(true);
    expect(slicesAsked).toEqual(Array.from({ length: slices + 1 }, (_, i) => i));
    // Warm-up a, b; then a b | b a | a b ...: at each flip a case runs twice in a row, so the
    // server sees the case change once per slice after the first (never a, b, a, b per slice).
    expect(seen).toEqual(Array.from({ length: slices + 3 }, (_, i) => (i % 2 === 0 ? '/a' : '/b')));
  });

  it('stops the part on a wrong answer, naming the part and the case', async () => {
    const seen: string[] = [];
    const base = await serve(seen, 500);
    await expect(
      interleavedLoad(
        ['write'],
        () => ({ url: `${base}/w`, body: '{}', expectStatus: 200 }),
        settings,
        'conversations',
      ),
    ).rejects.toThrow(/^conversations write: \d+ of \d+ answers had the wrong status/);
  });
});
