// npm run platform -- call learns from dev's console whether the Worker answered from its call ledger.
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { answeredFromLedger } from '../../platform/repeat.ts';

let server: Server | undefined;
afterEach(() => server?.close());

/** A console whose /api/activity lists `items`. */
const consoleWith = async (items: unknown[]): Promise<string> => {
  server = createServer((_request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ items }));
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return `http://127.0.0.1:${port}/`;
};

describe('whether a call was answered from the call ledger', () => {
  it("is the console's word for the call of that request id, and false when it cannot tell", async () => {
    const url = await consoleWith([
      { kind: 'call', requestId: 'r-first' },
      { kind: 'call', requestId: 'r-again', repeated: true },
    ]);
    expect(await answeredFromLedger(url, 'r-again')).toBe(true);
    expect(await answeredFromLedger(url, 'r-first')).toBe(false);
    expect(await answeredFromLedger(url, 'r-unknown', 2)).toBe(false);
    expect(await answeredFromLedger('http://127.0.0.1:9/', 'r-again')).toBe(false);
  });
});
