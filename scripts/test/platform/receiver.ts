// A local HTTP endpoint standing in for a webhook receiver or a function: it records every request
// and answers with what the test says.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Starts a receiver on a free port of 127.0.0.1. */
export const startReceiver = async (
  answer: (received: Received) => { status: number; body: unknown } | Promise<{ status: number; body: unknown }>,
) => {
  const received: Received[] = [];
  const server = createServer(async (request, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    const entry = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body };
    received.push(entry);
    const { status, body: payload } = await answer(entry);
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};
