// A deliberately hostile platform: a real HTTP server on a free port whose every answer the test
// writes by hand (endless bodies, lying headers, ids that climb out of their path, control
// characters), recording each request so a test can prove what was never sent.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Hit {
  method: string;
  path: string;
}

export type HostileAnswer = (request: IncomingMessage, response: ServerResponse) => void | Promise<void>;

/** Starts the server; `answer` handles every request. */
export const startHostile = async (answer: HostileAnswer) => {
  const hits: Hit[] = [];
  let written = 0;
  const server = createServer(async (request, response) => {
    for await (const _ of request) {
      // drain the body
    }
    hits.push({ method: request.method ?? '', path: new URL(request.url ?? '/', 'http://x').pathname });
    const write = response.write.bind(response);
    response.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
      written += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
      return write(chunk, ...rest);
    }) as typeof response.write;
    response.on('error', () => {});
    await answer(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    /** Bytes the server managed to write before the client hung up. */
    written: () => written,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};

/** Answers an endless JSON array, one record after another, until the client hangs up. */
export const endlessList: HostileAnswer = (_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.write('[');
  const record = `${JSON.stringify({ id: 'x', name: 'x', description: 'y'.repeat(1000), url: 'https://x.test/', parameters: {} })},`;
  const chunk = record.repeat(64);
  const pump = () => {
    while (!response.destroyed && response.write(chunk)) {
      // keep writing until the socket pushes back
    }
    if (!response.destroyed) response.once('drain', pump);
  };
  response.on('close', () => response.removeAllListeners('drain'));
  pump();
};

/** Answers `body` as JSON with `status`. */
export const json =
  (body: unknown, status = 200, headers: Record<string, string> = {}): HostileAnswer =>
  (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  };
